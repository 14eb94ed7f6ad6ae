import {
  M,
  REFUND_POLICY_ID,
  TERMS_POLICY_ID,
  type TPolicy,
  type TPublicPolicy,
  type ZCreatePolicyRequest,
  type ZUpdatePolicyRequest,
} from '@marquee/core';
import sanitizeHtml from 'sanitize-html';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import { AppError, DomainError, notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import * as repo from './repository.js';

// Rich text from the policy editor is HTML. Only a safe subset survives: text structure, emphasis,
// lists, links (http, https, mailto, tel) and text alignment; no scripts, styles, frames or images.
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'a', 'blockquote', 'code', 'pre', 'hr', 'span', 'sub', 'sup'],
  allowedAttributes: { a: ['href', 'target', 'rel'], p: ['style'], h1: ['style'], h2: ['style'], h3: ['style'], h4: ['style'], h5: ['style'], h6: ['style'] },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center|justify)$/] } },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: 'noopener noreferrer nofollow', ...(attribs.target ? { target: '_blank' } : {}) },
    }),
  },
};

export function sanitizePolicyHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE).trim();
}

/** spec: accounts §5 'Policy details cannot be blank.': judged on what is left after sanitising. */
function cleanDetail(html: string): string {
  const clean = sanitizePolicyHtml(html);
  const text = sanitizeHtml(clean, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\u00a0/g, ' ').trim();
  if (!text) throw new AppError('VALIDATION', M.policyDetailsRequired, { 'details.detail': M.policyDetailsRequired });
  return clean;
}

const titleOf = (id: string) => id.split('-').map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w)).join(' ');

function toPolicy(row: repo.PolicyRow): TPolicy {
  return {
    id: row.id,
    details: {
      sk: row.sk,
      name: row.name,
      group: row.group,
      type: row.type,
      detail: row.detail,
      dateCreated: row.createdAt.toISOString(),
      dateModified: row.updatedAt.toISOString(),
    },
  };
}

export async function listPolicies({ deps, query }: { deps: Deps; query: unknown }) {
  const q = compileList(repo.POLICY_LIST, query);
  const { rows, total } = await repo.listPolicies(deps.db, q);
  return q.page(rows, total, ({ row }) => toPolicy(row));
}

export async function getPolicy({ deps, id }: { deps: Deps; id: string }): Promise<TPolicy> {
  const row = await repo.findPolicy(deps.db, id);
  if (!row) throw notFound();
  return toPolicy(row);
}

/** What attendees read (checkout links to the refund policy and the terms). */
export async function getPublicPolicy({ deps, id }: { deps: Deps; id: string }): Promise<TPublicPolicy> {
  const row = await repo.findPolicy(deps.db, id);
  if (!row) throw notFound();
  return { id: row.id, details: { name: row.name, detail: row.detail, dateModified: row.updatedAt.toISOString() } };
}

export async function createPolicy({ deps, input }: { deps: Deps; input: z.output<typeof ZCreatePolicyRequest> }) {
  const { id, details } = input;
  const inserted = await repo.insertPolicy(deps.db, {
    id,
    name: details.name || titleOf(id),
    group: details.group || 'global',
    type: details.type || 'general',
    sk: details.sk || 'policy',
    detail: cleanDetail(details.detail),
  });
  // spec: accounts §8 'Duplicate policy found'
  if (!inserted) throw new DomainError('POLICY_DUPLICATE', M.policyDuplicate);
  return getPolicy({ deps, id });
}

export async function updatePolicy({ deps, id, changes }: { deps: Deps; id: string; changes: z.output<typeof ZUpdatePolicyRequest>['details'] }) {
  if (!(await repo.findPolicy(deps.db, id))) throw notFound();
  const values: Parameters<typeof repo.updatePolicy>[2] = {};
  if (changes.name) values.name = changes.name;
  if (changes.group) values.group = changes.group;
  if (changes.type) values.type = changes.type;
  if (changes.sk) values.sk = changes.sk;
  if (changes.detail !== undefined) values.detail = cleanDetail(changes.detail);
  await repo.updatePolicy(deps.db, id, values);
  return getPolicy({ deps, id });
}

export async function deletePolicy({ deps, id }: { deps: Deps; id: string }) {
  if (!(await repo.deletePolicy(deps.db, id))) throw notFound();
  return { success: true as const };
}

/**
 * The policies attendees are shown at checkout, seeded while the platform has no policies at all
 * (so an operator who edits or deletes them is never overridden). Safe on every start.
 */
export const DEFAULT_POLICIES = [
  {
    id: REFUND_POLICY_ID,
    name: 'Refund Policy',
    group: 'checkout',
    type: 'refund',
    detail:
      '<p>Tickets are refundable only when the event is cancelled or rescheduled, or where the organiser says so on the event page. ' +
      'Refunds go back to the card used to pay, less any fees the organiser does not refund.</p>' +
      '<p>To ask for a refund, reply to your ticket e-mail or contact the event organiser. Refunds usually reach your card within 5 to 10 business days.</p>',
  },
  {
    id: TERMS_POLICY_ID,
    name: 'Terms and Conditions',
    group: 'checkout',
    type: 'terms',
    detail:
      '<p>Your ticket is a licence to attend the event, issued by the event organiser, who is responsible for the event. ' +
      'Marquee sells tickets on the organiser\'s behalf. Service and processing fees are shown before you pay.</p>' +
      '<p>Each ticket admits one person once. Tickets may not be resold above face value. Local and state taxes are the event producer\'s responsibility.</p>',
  },
] as const;

export async function ensureDefaultPolicies(deps: Pick<Deps, 'db'>): Promise<void> {
  if ((await repo.countPolicies(deps.db)) > 0) return;
  for (const p of DEFAULT_POLICIES) await repo.insertPolicy(deps.db, { ...p, sk: 'policy', detail: sanitizePolicyHtml(p.detail) });
}
