import { notify } from '../../ui/notify';

// spec: accounts-admin-fees §8 Load failures: each shows once, then is suppressed for 5 seconds
// after closing.
export const LOAD_FAILURE_SUPPRESS_MS = 5000;

const open = new Set<string>();
const suppressedUntil = new Map<string, number>();

/** Shows a load-failure toast unless the same one is on screen or was closed less than 5 s ago. */
export function showLoadFailure(id: string, title: string, now: () => number = Date.now): boolean {
  if (open.has(id) || (suppressedUntil.get(id) ?? 0) > now()) return false;
  open.add(id);
  notify.error(title, undefined, {
    id,
    duration: 9000,
    onClose: () => {
      open.delete(id);
      suppressedUntil.set(id, now() + LOAD_FAILURE_SUPPRESS_MS);
    },
  });
  return true;
}
