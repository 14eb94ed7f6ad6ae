import { describe, expect, it } from 'vitest';
import { discountCodeState, isDiscountCodeUsable, isEventPublic, isEventWritable } from './rules.js';

const code = { active: true, usageLimit: 2, usedCount: 0, startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-02-01T00:00:00Z' };
const at = (iso: string) => new Date(iso);

describe('discountCodeState', () => {
  it('is off, used up, expired, scheduled or active, in that order', () => {
    expect(discountCodeState({ ...code, active: false, usedCount: 2 }, at('2025-01-01T00:00:00Z'))).toBe('off');
    expect(discountCodeState({ ...code, usedCount: 2 }, at('2027-01-01T00:00:00Z'))).toBe('usedUp');
    expect(discountCodeState(code, at('2026-02-01T00:00:00Z'))).toBe('expired');
    expect(discountCodeState(code, at('2025-12-31T23:59:59Z'))).toBe('scheduled');
    expect(discountCodeState(code, at('2026-01-01T00:00:00Z'))).toBe('active');
    expect(discountCodeState({ ...code, usageLimit: null, startsAt: null, endsAt: null, usedCount: 99 }, Date.parse('2030-01-01T00:00:00Z'))).toBe('active');
  });
  it('is usable only when active', () => {
    expect(isDiscountCodeUsable(code, at('2026-01-15T00:00:00Z'))).toBe(true);
    expect(isDiscountCodeUsable({ ...code, startsAt: new Date('2026-01-20T00:00:00Z') }, at('2026-01-15T00:00:00Z'))).toBe(false);
  });
});

describe('isEventWritable', () => {
  it('is every status but cancelled', () => {
    expect(['draft', 'published', 'cancelled'].map((s) => isEventWritable(s as 'draft'))).toEqual([true, true, false]);
  });
});

describe('isEventPublic', () => {
  it('is published now, or cancelled after it was published; never a draft', () => {
    const at = '2026-01-01T00:00:00Z';
    expect(isEventPublic({ status: 'published', publishedAt: at })).toBe(true);
    expect(isEventPublic({ status: 'cancelled', publishedAt: new Date(at) })).toBe(true);
    expect(isEventPublic({ status: 'cancelled', publishedAt: null })).toBe(false);
    // Unpublished back to a draft: it was public once, it is its staff's only now.
    expect(isEventPublic({ status: 'draft', publishedAt: at })).toBe(false);
    expect(isEventPublic({ status: 'draft', publishedAt: null })).toBe(false);
  });
});
