import { TenantFeesPanel } from '../../fees/components/tenant-fees-panel';
import { usePlatformAccess } from '../../../shared/access';
import { useTenantDetail } from './tenant-detail-layout';

/** /tenant/{tenantId}/fees: the platform's view of a tenant's fees, with the control switch. */
export function TenantFeesTab() {
  const { tenant } = useTenantDetail();
  const { canWrite } = usePlatformAccess();
  return <TenantFeesPanel tenantId={tenant.id} console="platform" canWrite={canWrite} />;
}
