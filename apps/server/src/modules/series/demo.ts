import { randomUUID } from 'node:crypto';
import { expandSchedule, instantToWallClock } from '@marquee/core';
import type { DbOrTx } from '../../db/client.js';
import { makeDates } from './make-dates.js';
import * as repo from './repository.js';

// Issue 28: the demo's event series (README names it): a harbour walk on Tuesdays and Thursdays,
// six dates from next week on, on sale, each with its own capacity of 20.

export const DEMO_SERIES = { urlName: 'harbour-walk', name: 'Harbour Walking Tour' } as const;

export async function seedDemoSeries(tx: DbOrTx, tenantId: string, opts: { now?: Date } = {}) {
  const now = opts.now ?? new Date();
  const timeZone = 'America/New_York';
  const startDate = instantToWallClock(new Date(now.getTime() + 7 * 24 * 3600_000), timeZone).date;
  const expanded = expandSchedule({ weekly: { startDate, weekdays: [2, 4], count: 6 }, startTime: '18:00', endTime: '19:30' }, timeZone);
  if ('problem' in expanded) throw new Error(`demo series: ${expanded.problem.message}`);
  const seriesId = randomUUID();
  const series = await repo.insertSeries(tx, {
    tenantId,
    id: seriesId,
    ...DEMO_SERIES,
    description: 'Ninety minutes along the old harbour with a local guide: the lighthouse, the fish market and the shipyards. Comfortable shoes recommended.',
    timeZone,
    venueName: 'Pier 4, Harbour Front',
    capacity: 20,
  });
  const types = await repo.insertSeriesTicketTypes(tx, [
    { tenantId, id: randomUUID(), seriesId, name: 'Adult', price: 2500, quantity: 20, sortOrder: 0 },
    { tenantId, id: randomUUID(), seriesId, name: 'Child (under 12)', price: 1200, quantity: 10, sortOrder: 1 },
  ]);
  await makeDates(tx, { series, seriesTicketTypes: types, occurrences: expanded.occurrences, publish: true });
  return { seriesId };
}
