import { describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE } from '@marquee/core';
import { defaultEventTimeZone, zoneAbbreviation, zoneAbbreviationOnWall } from './time';

// Today is in November (standard time in the US), as in the exploratory test that found the bug.
const NOVEMBER = Date.parse('2026-11-20T18:00:00Z');
const JULY = Date.parse('2026-07-20T18:00:00Z');

describe('zoneAbbreviationOnWall: the abbreviation on the date typed, not today', () => {
  it.each([
    ['America/Los_Angeles', '2027-07-01', '09:00', 'PDT'],
    ['America/Los_Angeles', '2027-07-31', '09:00', 'PDT'],
    ['America/Los_Angeles', '2027-12-01', '09:00', 'PST'],
    ['America/New_York', '2027-08-01', '19:00', 'EDT'],
    ['America/Chicago', '2027-01-15', '19:00', 'CST'],
    ['America/Phoenix', '2027-07-01', '09:00', 'MST'],
    ['Pacific/Honolulu', '2027-07-01', '09:00', 'HST'],
    ['Europe/London', '2027-07-01', '09:00', 'GMT+1'],
    ['Europe/London', '2027-12-01', '09:00', 'GMT'],
  ])('%s on %s %s is %s', (zone, date, time, expected) => {
    expect(zoneAbbreviationOnWall(zone, date, time, NOVEMBER)).toBe(expected);
    expect(zoneAbbreviationOnWall(zone, date, time, JULY)).toBe(expected);
  });

  it('follows the time on the day the clocks change (Los Angeles, 14 March 2027)', () => {
    expect(zoneAbbreviationOnWall('America/Los_Angeles', '2027-03-14', '01:30', NOVEMBER)).toBe('PST');
    // 2:30 does not exist that night; it counts from the jump, 3:30 PDT (docs/decisions.md, events).
    expect(zoneAbbreviationOnWall('America/Los_Angeles', '2027-03-14', '02:30', NOVEMBER)).toBe('PDT');
    expect(zoneAbbreviationOnWall('America/Los_Angeles', '2027-03-14', '09:00', NOVEMBER)).toBe('PDT');
    // 7 November 2027: 1:30 happens twice and means its first pass, still in summer time.
    expect(zoneAbbreviationOnWall('America/Los_Angeles', '2027-11-07', '01:30', JULY)).toBe('PDT');
    expect(zoneAbbreviationOnWall('America/Los_Angeles', '2027-11-07', '03:00', JULY)).toBe('PST');
  });

  it('reads a date whose time is not typed yet (or not a time) at noon of that day', () => {
    expect(zoneAbbreviationOnWall('America/Los_Angeles', '2027-07-01', '', NOVEMBER)).toBe('PDT');
    expect(zoneAbbreviationOnWall('America/Los_Angeles', '2027-07-01', null, NOVEMBER)).toBe('PDT');
    expect(zoneAbbreviationOnWall('America/Los_Angeles', '2027-07-01', '9:0', NOVEMBER)).toBe('PDT');
    expect(zoneAbbreviationOnWall('America/Los_Angeles', '2027-03-14', '', NOVEMBER)).toBe('PDT');
    expect(zoneAbbreviationOnWall('America/Los_Angeles', '2027-11-07', '', JULY)).toBe('PST');
  });

  it("shows today's abbreviation until a date is typed, or when the date is not a real one", () => {
    for (const date of [null, undefined, '', '2027-02-30', 'not-a-date']) {
      expect(zoneAbbreviationOnWall('America/Los_Angeles', date, '09:00', NOVEMBER)).toBe('PST');
      expect(zoneAbbreviationOnWall('America/Los_Angeles', date, '09:00', JULY)).toBe('PDT');
    }
  });

  it('agrees with the abbreviation of the instant the server stores for that wall clock', () => {
    // 1 July 2027, 9:00 in Los Angeles is 16:00 UTC, listed as "… 9:00 AM PDT".
    expect(zoneAbbreviation('America/Los_Angeles', Date.parse('2027-07-01T16:00:00Z'))).toBe(zoneAbbreviationOnWall('America/Los_Angeles', '2027-07-01', '09:00', NOVEMBER));
  });
});

describe('defaultEventTimeZone: a new event starts in the browser’s zone when the form lists it', () => {
  it.each([
    ['America/Chicago', 'America/Chicago'],
    ['America/Los_Angeles', 'America/Los_Angeles'],
    ['Pacific/Honolulu', 'Pacific/Honolulu'],
    ['Europe/Berlin', 'Europe/Berlin'],
    ['Australia/Sydney', 'Australia/Sydney'],
    ['Asia/Tokyo', 'Asia/Tokyo'],
  ])('%s → %s', (browser, expected) => {
    expect(defaultEventTimeZone(browser)).toBe(expected);
  });

  it.each([
    // Says where the clock is set, not where the organiser is.
    ['UTC'],
    ['Etc/UTC'],
    ['Etc/GMT+5'],
    ['GMT'],
    // Not a zone the form offers.
    ['Mars/Olympus_Mons'],
    [''],
    [undefined],
  ])('%s → the default', (browser) => {
    expect(DEFAULT_TIME_ZONE).toBe('America/New_York');
    expect(defaultEventTimeZone(browser)).toBe(DEFAULT_TIME_ZONE);
  });

  it('reads the zone the runtime reports when none is given', () => {
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(defaultEventTimeZone()).toBe(defaultEventTimeZone(own));
  });
});
