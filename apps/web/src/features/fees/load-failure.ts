import { notify } from '../../ui/notify';
import { createLoadFailureGate } from './load-failure-gate';

const gate = createLoadFailureGate();

/** Shows a load-failure toast unless the same one is on screen or was closed less than 5 s ago. */
export function showLoadFailure(id: string, title: string): boolean {
  if (!gate.tryOpen(id)) return false;
  notify.error(title, undefined, { id, duration: 9000, onClose: () => gate.closed(id) });
  return true;
}
