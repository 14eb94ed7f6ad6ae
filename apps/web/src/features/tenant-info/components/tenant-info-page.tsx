import { Skeleton, Stack } from '@mantine/core';
import { useSiteContext } from '../../../shared/site-context';
import { errorMessage } from '../../../ui/api-client';
import { EmptyState } from '../../../ui/empty-state';
import { PageHeader } from '../../../ui/page-header';
import { useIsTenantAdmin } from '../../../shared/access';
import { useTenant } from '../../tenants/queries';
import { TenantInfoForm } from './tenant-info-form';

/** Tenant console: the tenant's own Basic Information (the platform's form, without delete). */
export function TenantInfoPage() {
  const context = useSiteContext();
  const tenantId = context.tenant?.id;
  const tenant = useTenant(tenantId);
  const isAdmin = useIsTenantAdmin(tenantId);

  return (
    <>
      <PageHeader title="Basic Information" description="Your organisation's contact details, logo and the invitation your staff receive." />
      {tenant.data ? (
        <TenantInfoForm tenant={tenant.data} canWrite={isAdmin} />
      ) : tenant.error ? (
        <EmptyState title="Your details could not be loaded" description={errorMessage(tenant.error)} />
      ) : (
        <Stack>
          <Skeleton height={160} radius="lg" />
          <Skeleton height={320} radius="lg" />
        </Stack>
      )}
    </>
  );
}
