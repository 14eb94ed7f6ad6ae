import { PaymentSettingsPanel } from '../../payment-settings/components/payment-settings-panel';
import { usePlatformAccess } from '../../../shared/access';
import { useTenantDetail } from './tenant-detail-layout';

/** /tenant/{tenantId}/payment-settings */
export function TenantPaymentTab() {
  const { tenant } = useTenantDetail();
  const { canWrite } = usePlatformAccess();
  return <PaymentSettingsPanel tenantId={tenant.id} canWrite={canWrite} />;
}
