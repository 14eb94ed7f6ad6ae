import { useIsTenantAdmin } from '../../../shared/access';
import { useTenantId } from '../../../shared/tenant';
import { NoPageAccess } from '../../../ui/no-page-access';
import { AuditLogPage } from './audit-log-page';

/** The tenant console's audit log: its admins only. */
export function TenantAuditLogPage() {
  const tenantId = useTenantId();
  if (!useIsTenantAdmin(tenantId)) return <NoPageAccess />;
  return <AuditLogPage owner={tenantId} />;
}

export function PlatformAuditLogPage() {
  return <AuditLogPage owner={null} />;
}
