import type {
  TSurchargeRuleInput,
  TSurchargeRuleList,
  TSurchargeRulePatch,
  TSurchargeRuleResponse,
  TTicketSettingsResource,
  TTicketSettingsUpdateRequest,
} from '@marquee/core';
import { api } from '../../ui/api-client';

/**
 * Whose rules and settings a screen shows: the global template, or one tenant's, seen from the
 * platform console or from the tenant's own console (the two delete a tenant's rule differently:
 * spec: accounts §7 "delete path /platform/tenants/rules").
 */
export type FeeScope = { kind: 'global' } | { kind: 'tenant'; tenantId: string; console: 'platform' | 'tenant' };

export const scopeKey = (scope: FeeScope) => (scope.kind === 'global' ? 'global' : scope.tenantId);

const tenantBase = (tenantId: string) => `/api/tenants/${encodeURIComponent(tenantId)}`;
const enc = encodeURIComponent;

type Saved = { success: true; message: string; settings: TTicketSettingsResource };

export const feesApi = {
  listRules: (scope: FeeScope, q: { cursor?: string; limit: number }, signal?: AbortSignal) =>
    api.get<TSurchargeRuleList>(scope.kind === 'global' ? '/api/global/rules' : `${tenantBase(scope.tenantId)}/rules`, { ...q, sort: 'details.dateCreated' }, signal),
  createRule: (scope: FeeScope, input: TSurchargeRuleInput) =>
    api.post<TSurchargeRuleResponse>(scope.kind === 'global' ? '/api/global/rule' : `${tenantBase(scope.tenantId)}/rules`, input),
  updateRule: (scope: FeeScope, ruleId: string, input: TSurchargeRuleInput) =>
    api.put<TSurchargeRuleResponse>(scope.kind === 'global' ? `/api/global/rule/${enc(ruleId)}` : `${tenantBase(scope.tenantId)}/rules/${enc(ruleId)}`, input),
  patchRule: (scope: FeeScope, ruleId: string, patch: TSurchargeRulePatch) =>
    api.patch<TSurchargeRuleResponse>(scope.kind === 'global' ? `/api/global/rule/${enc(ruleId)}` : `${tenantBase(scope.tenantId)}/rules/${enc(ruleId)}`, patch),
  deleteRule: (scope: FeeScope, ruleId: string) => {
    if (scope.kind === 'global') return api.delete<{ success: true; message: string }>(`/api/global/rules/${enc(ruleId)}`);
    if (scope.console === 'platform') return api.delete<{ success: true; message: string }>(`/api/platform/tenants/rules/${enc(ruleId)}?tenantId=${enc(scope.tenantId)}`);
    return api.delete<{ success: true; message: string }>(`${tenantBase(scope.tenantId)}/rules/${enc(ruleId)}`);
  },
  getSettings: (scope: FeeScope, signal?: AbortSignal) =>
    api.get<TTicketSettingsResource>(scope.kind === 'global' ? '/api/global/setting' : `${tenantBase(scope.tenantId)}/setting`, undefined, signal),
  updateSettings: (scope: FeeScope, body: TTicketSettingsUpdateRequest) =>
    api.put<Saved>(scope.kind === 'global' ? '/api/global/setting' : `${tenantBase(scope.tenantId)}/setting`, body),
};
