import { isTenantEditable, type TTenant } from '@marquee/core';

/** spec: accounts §4: delete is offered only for active or pending tenants. */
export const canDeleteTenant = (tenant: TTenant) => isTenantEditable(tenant.details.status);

export const deleteTenantMessage = (tenant: TTenant) =>
  `Delete ${tenant.details.name}? Its site at ${tenant.details.siteUrl} stops serving at once. Orders, payouts and reports are kept.`;
