import { randomUUID } from 'node:crypto';
import { M } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { newCode, sha256 } from '../../platform/auth/tokens.js';
import { originFor } from './account-helpers.js';
import { CODE_LOCK_FAILURES, CODE_TTL_MINUTES, sendUnlockLink } from './codes.js';
import { resetMail } from './mails.js';
import * as repo from './repository.js';

/**
 * Every answer takes at least this long, whether or not the address has an account: a known
 * address costs a code, a mail and a transaction, an unknown one nothing, and the difference was
 * measurable (issue 14 §4). Well above the known path's time, so the padding hides it.
 */
export const FORGOT_PASSWORD_FLOOR_MS = 200;

export async function forgotPassword({ deps, username, hostTenantUrl }: { deps: Deps; username: string; hostTenantUrl: string | null }) {
  const started = Date.now();
  try {
    const user = await repo.findUserByEmail(deps.db, username);
    if (user && user.status !== 'DISABLED') {
      const code = newCode();
      // A link built from the Host header would let anyone have the code mailed to their own site.
      const origin = originFor(deps, hostTenantUrl);
      const link = `${origin}/forgot-password?${new URLSearchParams({ username: user.email, code })}`;
      await deps.db.transaction(async (tx) => {
        // A locked account gets the unlock link again: a code would not be checked anyway.
        if (user.codeFailures >= CODE_LOCK_FAILURES) return sendUnlockLink(deps, tx, user);
        await repo.insertCode(tx, {
          id: randomUUID(),
          userId: user.id,
          purpose: 'reset',
          codeHash: sha256(code),
          expiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
        });
        await deps.mailer.send(tx, resetMail(user.email, code, link));
      });
    }
  } finally {
    const wait = started + FORGOT_PASSWORD_FLOOR_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return { success: true as const, message: M.codeSent };
}
