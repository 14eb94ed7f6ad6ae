import { describe, expect, it } from 'vitest';
import { defaultSnippetEvent, snippetOptions, type SnippetEvent } from './snippet-events';

const now = Date.parse('2026-06-15T12:00:00Z');
const ev = (urlName: string, start: string | null, end: string | null, created: string): SnippetEvent => ({
  details: { name: urlName.toUpperCase(), urlName, startDateTime: start, endDateTime: end, timeZone: 'America/New_York', dateCreated: created },
});
// The newest event (created last) is in December; the next one to happen is in July.
const events = [
  ev('july', '2026-07-01T23:00:00Z', '2026-07-02T02:00:00Z', '2026-01-01T00:00:00Z'),
  ev('may', '2026-05-01T23:00:00Z', '2026-05-02T02:00:00Z', '2026-01-02T00:00:00Z'),
  ev('december', '2026-12-01T23:00:00Z', null, '2026-06-01T00:00:00Z'),
  ev('tonight', '2026-06-15T10:00:00Z', '2026-06-15T14:00:00Z', '2026-01-03T00:00:00Z'),
];

describe('the snippet panel’s event', () => {
  it('starts on the next upcoming event (one under way counts), not the newest', () => {
    expect(defaultSnippetEvent(events, null, now)).toBe('tonight');
    expect(defaultSnippetEvent(events.filter((e) => e.details.urlName !== 'tonight'), null, now)).toBe('july');
  });
  it('keeps the event asked for, when it is one of them', () => {
    expect(defaultSnippetEvent(events, 'may', now)).toBe('may');
    expect(defaultSnippetEvent(events, 'nope', now)).toBe('tonight');
  });
  it('falls back to the newest when all are over, and to nothing when there are none', () => {
    const past = [ev('a', '2026-01-01T00:00:00Z', null, '2025-12-01T00:00:00Z'), ev('b', '2025-01-01T00:00:00Z', null, '2025-12-02T00:00:00Z')];
    expect(defaultSnippetEvent(past, null, now)).toBe('b');
    expect(defaultSnippetEvent([], null, now)).toBeNull();
  });
  it('lists upcoming soonest first, then past most recent first', () => {
    expect(snippetOptions(events, now).map((g) => [g.group, g.items.map((i) => i.value)])).toEqual([
      ['Upcoming', ['tonight', 'july', 'december']],
      ['Past', ['may']],
    ]);
  });
});
