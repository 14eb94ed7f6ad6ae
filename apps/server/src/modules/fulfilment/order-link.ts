import { ORDER_LINK_TOKEN_RE } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { SiteCtx } from '../../platform/auth/context.js';
import { notFound } from '../../platform/errors.js';
import * as repo from './repository.js';
import { orderLinkHash } from './service.js';

/** The order a private link's token opens on this host's tenant; anything else is 404 (issue 15). */
export async function orderOfLink(deps: Deps, site: SiteCtx, token: string) {
  if (!ORDER_LINK_TOKEN_RE.test(token)) throw notFound();
  const order = await repo.findOrderByLink(deps.db, site.tenant.id, orderLinkHash(token));
  if (!order) throw notFound();
  return order;
}
