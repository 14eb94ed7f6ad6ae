import { useIsTenantAdmin } from '../../../shared/access';
import { useTenantId } from '../../../shared/tenant';
import { NoPageAccess } from '../../../ui/no-page-access';
import { ApiKeysPage } from './api-keys-page';

/** The tenant console's API keys: its admins only. */
export function TenantApiKeysPage() {
  const tenantId = useTenantId();
  if (!useIsTenantAdmin(tenantId)) return <NoPageAccess />;
  return <ApiKeysPage owner={tenantId} />;
}

export function PlatformApiKeysPage() {
  return <ApiKeysPage owner={null} />;
}
