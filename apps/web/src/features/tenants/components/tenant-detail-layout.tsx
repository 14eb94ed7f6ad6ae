import { Button, Group, Skeleton, Stack, Tabs } from '@mantine/core';
import type { TTenant } from '@marquee/core';
import { IconBuildingStore, IconCreditCard, IconExternalLink, IconReceipt2 } from '@tabler/icons-react';
import { Outlet, useLocation, useNavigate, useOutletContext, useParams } from 'react-router';
import { errorMessage } from '../../../ui/api-client';
import { NoPageAccess } from '../../../ui/no-page-access';
import { EmptyState } from '../../../ui/empty-state';
import { PageHeader } from '../../../ui/page-header';
import { usePlatformAccess } from '../../../shared/access';
import { tenantsListHref } from '../list-location';
import { useTenant } from '../queries';
import { SiteStatus } from './site-status';
import { TenantStatusBadge } from './tenant-status-badge';

export type TenantDetailContext = { tenant: TTenant };
export const useTenantDetail = () => useOutletContext<TenantDetailContext>();

const TABS = [
  { value: 'info', label: 'Basic Information', icon: IconBuildingStore },
  { value: 'fees', label: 'Fees', icon: IconReceipt2 },
  { value: 'payment-settings', label: 'Payment/Payouts', icon: IconCreditCard },
] as const;

/** The platform's tenant detail (/tenant/{tenantId}/...): its info, fees and payment/payout settings. */
export function TenantDetailLayout() {
  const { tenantId = '' } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { canWrite, canReadConfig } = usePlatformAccess();
  const tenant = useTenant(tenantId);
  const tab = pathname.split('/')[3] ?? 'info';
  // Fees and payment settings are configuration, which the reports-only role does not read.
  const tabs = canReadConfig ? TABS : TABS.filter((t) => t.value === 'info');
  const tabAllowed = tabs.some((t) => t.value === tab);

  if (tenant.error) {
    return (
      <>
        <PageHeader title="Tenant" breadcrumbs={[{ label: 'Tenants', to: tenantsListHref() }, { label: 'Tenant' }]} />
        <EmptyState title="This tenant could not be loaded" description={errorMessage(tenant.error)} action={<Button onClick={() => navigate(tenantsListHref())}>Back to Tenants</Button>} />
      </>
    );
  }
  if (!tenant.data) {
    return (
      <Stack>
        <Skeleton height={60} radius="md" />
        <Skeleton height={40} radius="md" />
        <Skeleton height={320} radius="lg" />
      </Stack>
    );
  }
  const t = tenant.data;
  return (
    <>
      <PageHeader
        breadcrumbs={[{ label: 'Tenants', to: tenantsListHref() }, { label: t.details.name }]}
        title={
          <Group gap="sm" component="span">
            {t.details.name}
            <TenantStatusBadge status={t.details.status} />
          </Group>
        }
        description={t.details.email}
        actions={
          <>
            <SiteStatus tenantId={t.id} canWrite={canWrite} />
            <Button component="a" href={t.details.siteUrl} target="_blank" rel="noreferrer" variant="default" leftSection={<IconExternalLink size={16} />}>
              Open site
            </Button>
          </>
        }
      />
      {/* Each tab's page sits in its panel, so the tabs' aria-controls point at panels that exist. */}
      <Tabs value={tab} onChange={(v) => v && navigate(`/tenant/${t.id}/${v}`)}>
        <Tabs.List mb="lg">
          {tabs.map((x) => (
            <Tabs.Tab key={x.value} value={x.value} leftSection={<x.icon size={16} />}>
              {x.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((x) => (
          <Tabs.Panel key={x.value} value={x.value}>
            {x.value === tab && <Outlet context={{ tenant: t } satisfies TenantDetailContext} />}
          </Tabs.Panel>
        ))}
      </Tabs>
      {!tabAllowed && <NoPageAccess backTo={`/tenant/${t.id}/info`} backLabel="Back to Basic Information" />}
    </>
  );
}
