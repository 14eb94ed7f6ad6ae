import { describe, expect, it } from 'vitest';
import { expandSchedule, isoWeekday, SERIES_MAX_DATES } from './schemas/series.js';

const ok = (r: ReturnType<typeof expandSchedule>) => {
  if ('problem' in r) throw new Error(r.problem.message);
  return r.occurrences;
};

describe('expandSchedule (issue 28)', () => {
  it('keeps the local start time across a daylight-saving change', () => {
    // Sundays around 2031-11-02, when New York falls back from EDT to EST.
    const dates = ok(expandSchedule({ weekly: { startDate: '2031-10-26', weekdays: [7], count: 2 }, startTime: '19:00', endTime: '20:00' }, 'America/New_York'));
    expect(dates.map((d) => d.start.toISOString())).toEqual(['2031-10-26T23:00:00.000Z', '2031-11-03T00:00:00.000Z']);
  });

  it('merges a list and a rule without repeats, in order, and cuts slots that fit only', () => {
    const dates = ok(
      expandSchedule({ dates: ['2031-06-04', '2031-06-03'], weekly: { startDate: '2031-06-03', weekdays: [2], until: '2031-06-10' }, startTime: '10:00', endTime: '11:10', slots: { everyMinutes: 30 } }, 'UTC'),
    );
    expect(dates.map((d) => `${d.date} ${d.startTime}`)).toEqual(['2031-06-03 10:00', '2031-06-03 10:30', '2031-06-04 10:00', '2031-06-04 10:30', '2031-06-10 10:00', '2031-06-10 10:30']);
    expect(dates[1]!.end.toISOString()).toBe('2031-06-03T11:00:00.000Z');
  });

  it('refuses more than the maximum at exactly one over, and allows the maximum', () => {
    const days = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.UTC(2031, 0, 1 + i)).toISOString().slice(0, 10));
    expect(ok(expandSchedule({ dates: days(SERIES_MAX_DATES), startTime: '10:00', endTime: '11:00' }, 'UTC'))).toHaveLength(SERIES_MAX_DATES);
    const over = expandSchedule({ dates: days(SERIES_MAX_DATES + 1), startTime: '10:00', endTime: '11:00' }, 'UTC');
    expect('problem' in over && over.problem.code).toBe('SERIES_TOO_MANY_DATES');
  });

  it('a rule that matches no day makes no dates', () => {
    // Until the day before the first Monday.
    const r = expandSchedule({ weekly: { startDate: '2031-06-03', weekdays: [1], until: '2031-06-08' }, startTime: '10:00', endTime: '11:00' }, 'UTC');
    expect('problem' in r && r.problem.code).toBe('SERIES_NO_DATES');
    expect(isoWeekday('2031-06-09')).toBe(1);
  });
});
