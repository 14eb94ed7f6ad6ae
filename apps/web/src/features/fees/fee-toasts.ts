import { M } from '@marquee/core';
import { errorMessage } from '../../ui/api-client';
import { notify } from '../../ui/notify';
import type { FeeScope } from './api';

// spec: accounts-admin-fees §9: 3000 ms for fee and payment toasts.
export const FEE_TOAST_MS = 3000;
const opts = { duration: FEE_TOAST_MS };

/** Settings save failures: the spec words the global one; a tenant's is ours (docs/decisions.md). */
export const TENANT_SETTINGS_FAILED = 'Updating Fees Settings Failed';

export const feeToast = {
  ruleCreated: () => notify.success(M.surchargeCreated, undefined, opts),
  ruleCreateFailed: (e: unknown) => notify.error(M.surchargeCreateFailed, errorMessage(e), opts),
  ruleUpdated: () => notify.success(M.surchargeUpdated, undefined, opts),
  ruleUpdateFailed: (e: unknown) => notify.error(M.surchargeUpdateFailed, errorMessage(e), opts),
  ruleDeleted: () => notify.success(M.surchargeDeleted, undefined, opts),
  ruleDeleteFailed: (message: string) => notify.error(M.surchargeDeleteFailed, message, opts),
  settingsUpdated: () => notify.success(M.settingsUpdated, undefined, opts),
  settingsFailed: (scope: FeeScope, e: unknown) =>
    notify.error(scope.kind === 'global' ? M.globalSettingsUpdateFailed : TENANT_SETTINGS_FAILED, errorMessage(e), opts),
  invalid: () => notify.error(M.inputValidationError, undefined, { ...opts, id: 'fees-invalid' }),
};
