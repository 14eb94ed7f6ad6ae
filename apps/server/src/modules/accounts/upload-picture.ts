import { randomUUID } from 'node:crypto';
import { M } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { AuthUser } from '../../platform/auth/context.js';
import { PICTURE_TYPES, sniffContentType } from '../../platform/content-type.js';
import { AppError } from '../../platform/errors.js';
import { getProfile, ownProfile } from './profile.js';
import * as repo from './repository.js';

export const PICTURE_MAX_BYTES = 5 * 1024 * 1024; // spec: accounts §9

export async function uploadPicture({ deps, user, userId, bytes, truncated }: { deps: Deps; user: AuthUser; userId: string; bytes: Buffer; truncated: boolean }) {
  ownProfile(user, userId);
  if (truncated || bytes.length > PICTURE_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', M.pictureSize);
  const type = sniffContentType(bytes);
  if (!type || !PICTURE_TYPES.includes(type)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', M.pictureType);
  const key = `users/${userId}/picture-${randomUUID()}.${type === 'image/png' ? 'png' : 'jpg'}`;
  await deps.storage.put(key, bytes, type);
  const previous = (await repo.findUserById(deps.db, userId))?.pictureKey;
  await repo.updateUser(deps.db, userId, { pictureKey: key });
  if (previous) await deps.storage.delete(previous);
  return getProfile({ deps, user, userId });
}
