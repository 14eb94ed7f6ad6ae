import { BOX_OFFICE, type TMembership, type TSiteContext } from '@marquee/core';
import {
  IconArmchair,
  IconBuildingStore,
  IconCalendarEvent,
  IconCalendarRepeat,
  IconCash,
  IconCashRegister,
  IconChartBar,
  IconGauge,
  IconHeartHandshake,
  IconHistory,
  IconKey,
  IconReceipt2,
  IconSearch,
  IconUsers,
  IconWebhook,
  IconWorldWww,
} from '@tabler/icons-react';
import { isTenantAdmin, isTenantWideMember } from '../../shared/access';
import type { ConsoleArea } from '../console/console-area';

// spec: accounts-admin-fees §4 tenant status: active and pending are editable; anything else is disabled.
const EDITABLE = ['active', 'pending'];

/** The tenant's admins (tenant-wide): keys, the audit log, webhooks and drawers (the server's rules too). */
const tenantAdmin = (memberships: TMembership[], context: TSiteContext) => isTenantAdmin(memberships, context.tenant?.id);
const tenantWide = (memberships: TMembership[], context: TSiteContext) => isTenantWideMember(memberships, context.tenant?.id);
/** Who sells at the box office here (core BOX_OFFICE): their own cash drawer (issue 23). */
const sellsAtBoxOffice = (memberships: TMembership[], context: TSiteContext) =>
  memberships.some((m) => m.tenantId === context.tenant?.id && m.roles.some((r) => (BOX_OFFICE.roles as readonly string[]).includes(r) || (BOX_OFFICE.eventRoles as readonly string[]).includes(r)));

export const tenantArea: ConsoleArea = {
  key: 'tenant',
  subtitle: (context) => context.tenant?.name ?? 'Organiser console',
  // Tenant-wide members and event staff of this tenant (sessions are per host, so a platform
  // session never reaches a tenant's console).
  hasAccess: (memberships, context) => !!context.tenant && memberships.some((m) => m.tenantId === context.tenant!.id),
  notice: (context) =>
    context.tenant && !EDITABLE.includes(context.tenant.status) ? 'This account is disabled and cannot be edited. Please contact Marquee support.' : null,
  // Event staff (roles on some events only) work in Events alone: the other pages are the tenant's.
  nav: [
    { label: 'Dashboard', to: '/', icon: IconGauge, end: true, visible: tenantWide },
    { label: 'Events', to: '/events', icon: IconCalendarEvent },
    { label: 'Event series', to: '/event-series', icon: IconCalendarRepeat, visible: tenantAdmin },
    { label: 'Staff', to: '/staff', icon: IconUsers, visible: tenantWide },
    { label: 'Basic Information', to: '/info', icon: IconBuildingStore, visible: tenantWide },
    { label: 'Fees', to: '/fees', icon: IconReceipt2, visible: tenantWide },
    { label: 'Reports', to: '/reports/sales', icon: IconChartBar, visible: tenantWide },
    { label: 'Find an Order', to: '/reports/orders', icon: IconSearch, visible: tenantWide },
    { label: 'Payouts', to: '/reports/payouts/completed', icon: IconCash, visible: tenantWide },
    { label: 'Cash drawer', to: '/cash-drawer', icon: IconCashRegister, visible: sellsAtBoxOffice },
    { label: 'Cash drawers', to: '/cash-drawers', icon: IconCashRegister, visible: tenantAdmin },
    { label: 'Charities', to: '/charities', icon: IconHeartHandshake, visible: tenantWide },
    { label: 'Venue layouts', to: '/venue-layouts', icon: IconArmchair, visible: tenantAdmin },
    { label: 'API Keys', to: '/api-keys', icon: IconKey, visible: tenantAdmin },
    { label: 'Audit Log', to: '/audit-log', icon: IconHistory, visible: tenantAdmin },
    { label: 'Sell on your website', to: '/settings/website', icon: IconWorldWww, visible: tenantAdmin },
    { label: 'Webhooks', to: '/settings/webhooks', icon: IconWebhook, visible: tenantAdmin },
  ],
};
