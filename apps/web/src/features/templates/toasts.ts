import { M, TEMPLATE_TOAST_MS } from '@marquee/core';
import { errorMessage } from '../../ui/api-client';
import { notify } from '../../ui/notify';

// spec: accounts-admin-fees §8 template toasts, shown 4000 ms (§9).
const opts = { duration: TEMPLATE_TOAST_MS };

export const templateToast = {
  uploaded: () => notify.success(M.templateUploaded, undefined, opts),
  updated: () => notify.success(M.templateUpdated, undefined, opts),
  removed: () => notify.success(M.templateRemoved, undefined, opts),
  createFailed: (e: unknown) => notify.error(M.templateCreateFailedTitle, `${M.templateCreateFailedBody} ${errorMessage(e)}`, opts),
  updateFailed: (e: unknown) => notify.error(M.templateUpdateFailed, errorMessage(e), opts),
  removeFailed: () => notify.error(M.templateDeleteFailedTitle, M.templateDeleteFailedBody, opts),
  invalid: () => notify.error(M.inputValidationError, undefined, { ...opts, id: 'template-invalid' }),
};
