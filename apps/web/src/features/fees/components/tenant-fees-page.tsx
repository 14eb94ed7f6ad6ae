import { useSiteContext } from '../../../shared/site-context';
import { PageHeader } from '../../../ui/page-header';
import { useIsTenantAdmin } from '../../../shared/access';
import { TenantFeesPanel } from './tenant-fees-panel';

/** Tenant console /fees: the tenant's own fees, editable only when the platform allows it. */
export function TenantFeesPage() {
  const context = useSiteContext();
  const tenantId = context.tenant?.id ?? '';
  const isAdmin = useIsTenantAdmin(tenantId);
  return (
    <>
      <PageHeader title="Fees" description="The service fees on your tickets, who pays them, taxes and charges." />
      <TenantFeesPanel tenantId={tenantId} console="tenant" canWrite={isAdmin} />
    </>
  );
}
