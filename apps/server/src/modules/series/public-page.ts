import { formatMoney, type TSeriesDate } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { SiteCtx } from '../../platform/auth/context.js';
import { escapeHtml } from '../../platform/mail.js';
import { publicDatesOf } from './get-series.js';
import * as repo from './repository.js';

// The series' one public page (issue 28): server-rendered HTML, no script, phones first. It lists
// the public dates (core isEventPublic) grouped by day, each with what is left or "Sold out", and
// links each bookable date to its own ticket menu (/{dateUrlName}/tickets), the ordinary event site.

const dayFmt = (tz: string) => new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
const timeFmt = (tz: string) => new Intl.DateTimeFormat('en-US', { timeZone: tz, hour: 'numeric', minute: '2-digit' });

function stateOf(d: TSeriesDate, now: number): { label: string; bookable: boolean; tone: 'ok' | 'low' | 'out' | 'off' } {
  if (d.status === 'cancelled') return { label: 'Cancelled', bookable: false, tone: 'off' };
  if (d.endDateTime && Date.parse(d.endDateTime) < now) return { label: 'Ended', bookable: false, tone: 'off' };
  if (d.soldOut) return { label: 'Sold out', bookable: false, tone: 'out' };
  if (d.left === null) return { label: 'Tickets available', bookable: true, tone: 'ok' };
  return { label: `${d.left} left`, bookable: true, tone: d.left <= 10 ? 'low' : 'ok' };
}

const CSS = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1b1e;background:#f6f7f9;line-height:1.45}
main{max-width:760px;margin:0 auto;padding:20px 16px 48px}
header p{margin:2px 0;color:#5c5f66}h1{font-size:1.6rem;margin:0 0 6px}
.from{font-weight:600;color:#1a1b1e!important}
.desc{margin:14px 0 0;white-space:pre-line}
h2{font-size:1rem;margin:26px 0 8px;color:#373a40}
ul{list-style:none;margin:0;padding:0;display:grid;gap:8px}
li a,li .slot{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:14px 16px;border-radius:10px;background:#fff;border:1px solid #dee2e6;text-decoration:none;color:inherit;min-height:56px}
li a:hover,li a:focus-visible{border-color:#228be6;box-shadow:0 0 0 3px #d0ebff;outline:none}
.time{font-weight:600;font-size:1.05rem}
.state{font-size:.9rem;padding:3px 10px;border-radius:999px;white-space:nowrap}
.ok{background:#ebfbee;color:#2b8a3e}.low{background:#fff4e6;color:#d9480f}.out{background:#ffe3e3;color:#c92a2a}.off{background:#f1f3f5;color:#868e96}
.slot{opacity:.75}
.cta{color:#1971c2;font-weight:600;font-size:.9rem}
.empty{padding:16px;background:#fff;border-radius:10px;border:1px solid #dee2e6}
`;

/** The page, or null when the tenant has no such series (or none of its dates is public). */
export async function renderSeriesPage({ deps, site, urlName, now = Date.now() }: { deps: Deps; site: SiteCtx; urlName: string; now?: number }): Promise<string | null> {
  const series = await repo.findSeriesByUrlName(deps.db, site.tenant.id, urlName);
  if (!series) return null;
  const dates = await publicDatesOf(deps, site.tenant.id, series.id);
  if (dates.length === 0) return null;
  const types = await repo.seriesTicketTypesOf(deps.db, site.tenant.id, series.id);
  const prices = types.map((t) => t.price);
  const from = prices.length ? Math.min(...prices) : null;
  const days = new Map<string, TSeriesDate[]>();
  const day = dayFmt(series.timeZone);
  const time = timeFmt(series.timeZone);
  for (const d of dates) {
    const key = d.startDateTime ? day.format(new Date(d.startDateTime)) : 'Date to be announced';
    days.set(key, [...(days.get(key) ?? []), d]);
  }
  const e = escapeHtml;
  const sections = [...days].map(([label, list]) => {
    const items = list.map((d) => {
      const s = stateOf(d, now);
      const start = d.startDateTime ? time.format(new Date(d.startDateTime)) : '';
      const end = d.endDateTime ? time.format(new Date(d.endDateTime)) : '';
      const body = `<span><span class="time">${e(start)}${end ? ` – ${e(end)}` : ''}</span>${s.bookable ? '<br><span class="cta">Choose tickets</span>' : ''}</span><span class="state ${s.tone}">${e(s.label)}</span>`;
      return s.bookable
        ? `<li><a href="/${e(d.urlName)}/tickets" data-date="${e(d.eventId)}" aria-label="${e(`${label}, ${start}: ${s.label}`)}">${body}</a></li>`
        : `<li><div class="slot" aria-label="${e(`${label}, ${start}: ${s.label}`)}">${body}</div></li>`;
    });
    return `<section><h2>${e(label)}</h2><ul>${items.join('')}</ul></section>`;
  });
  const title = `${series.name} · ${site.tenant.name}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(title)}</title><meta name="description" content="${e(`${series.name}: choose a date. ${site.tenant.name}`)}">
<style>${CSS}</style></head>
<body><main>
<header><p>${e(site.tenant.name)}</p><h1>${e(series.name)}</h1>
${series.venueName ? `<p>${e(series.venueName)}</p>` : ''}
${from !== null ? `<p class="from">From ${e(formatMoney(from))}</p>` : ''}
<p>${dates.length} ${dates.length === 1 ? 'date' : 'dates'} · choose one to see its tickets</p>
${series.description ? `<p class="desc">${e(series.description)}</p>` : ''}</header>
${sections.join('\n')}
</main></body></html>`;
}
