import { M } from '@marquee/core';
import { errorMessage } from '../../ui/api-client';
import { notify } from '../../ui/notify';

// spec: accounts-admin-fees §8 charity toasts; §9: 4000 ms for charity toasts, 2000 ms for the
// tenant's charity toggles.
export const CHARITY_TOAST_MS = 4000;
export const CHARITY_TOGGLE_TOAST_MS = 2000;
const opts = { duration: CHARITY_TOAST_MS };
const toggle = { duration: CHARITY_TOGGLE_TOAST_MS };

/** Create and update failures: the spec words none (docs/decisions.md, "Charities"). */
export const CHARITY_ADD_FAILED = 'Failed to add Charity';
export const CHARITY_UPDATE_FAILED = 'Failed to update Charity';

export const charityToast = {
  added: () => notify.success(M.charityAdded, undefined, opts),
  addFailed: (e: unknown) => notify.error(CHARITY_ADD_FAILED, errorMessage(e), opts),
  updated: () => notify.success(M.charityUpdated, undefined, opts),
  updateFailed: (e: unknown) => notify.error(CHARITY_UPDATE_FAILED, errorMessage(e), opts),
  removed: () => notify.success(M.charityRemoved, undefined, opts),
  removeFailed: () => notify.error(M.charityDeleteFailedTitle, M.charityDeleteFailedBody, opts),
  invalid: () => notify.error(M.inputValidationError, undefined, { ...opts, id: 'charity-invalid' }),
  enabled: () => notify.success(M.charityListUpdatedTitle, M.charityListUpdatedBody, toggle),
  enableFailed: (e: unknown) => notify.error(M.charitiesUpdateFailed, errorMessage(e), toggle),
  disabled: () => notify.success(M.charityDisableSuccessTitle, M.charityDisableSuccessBody, toggle),
  disableFailed: (e: unknown) => notify.error(M.charityDisableFailed, errorMessage(e), toggle),
};
