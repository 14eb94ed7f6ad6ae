import type { TProfile, TProfileUpdate, ZProfileUpdate } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { AuthUser } from '../../platform/auth/context.js';
import { notFound } from '../../platform/errors.js';
import * as repo from './repository.js';

// One's own profile (spec accounts §9): read and change it.

export function toProfile(deps: Deps, u: repo.UserRow): TProfile {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    contactNumber: u.contactNumber,
    birthDate: u.birthDate,
    address1: u.address1,
    address2: u.address2,
    city: u.city,
    state: u.state,
    zip: u.zip,
    country: u.country,
    profile: u.pictureKey ? deps.storage.downloadUrl(u.pictureKey, 24 * 3600) : null,
  };
}

export function ownProfile(user: AuthUser, userId: string) {
  // One's own profile only; anyone else's id is simply not there.
  if (user.id !== userId) throw notFound();
}

export async function getProfile({ deps, user, userId }: { deps: Deps; user: AuthUser; userId: string }) {
  ownProfile(user, userId);
  const row = await repo.findUserById(deps.db, userId);
  if (!row) throw notFound();
  return toProfile(deps, row);
}

export async function updateProfile({ deps, user, userId, changes }: { deps: Deps; user: AuthUser; userId: string; changes: z.output<typeof ZProfileUpdate> }) {
  ownProfile(user, userId);
  await repo.updateUser(deps.db, userId, changes as TProfileUpdate & Record<string, unknown>);
  return getProfile({ deps, user, userId });
}
