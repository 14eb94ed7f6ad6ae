// Issue 28: which event's snippet the console's "Sell on your website" panel shows. The organiser
// chooses in a select; it starts on the next upcoming event (the soonest start that has not ended
// yet), falling back to the newest when every published event is over.

export type SnippetEvent = { details: { name: string; urlName: string; startDateTime: string | null; endDateTime: string | null; timeZone: string; dateCreated: string } };

export type SnippetOption = { value: string; label: string; startDateTime: string | null; timeZone: string };
export type SnippetGroup = { group: string; items: SnippetOption[] };

const ended = (e: SnippetEvent, now: number) => {
  const end = e.details.endDateTime ?? e.details.startDateTime;
  return end !== null && Date.parse(end) < now;
};
const startOf = (e: SnippetEvent) => (e.details.startDateTime ? Date.parse(e.details.startDateTime) : Number.POSITIVE_INFINITY);

/** The select's options: upcoming events soonest first, then past ones most recent first. */
export function snippetOptions(events: readonly SnippetEvent[], now: number = Date.now()): SnippetGroup[] {
  const option = (e: SnippetEvent): SnippetOption => ({ value: e.details.urlName, label: e.details.name, startDateTime: e.details.startDateTime, timeZone: e.details.timeZone });
  const upcoming = events.filter((e) => !ended(e, now)).sort((a, b) => startOf(a) - startOf(b) || a.details.name.localeCompare(b.details.name));
  const past = events.filter((e) => ended(e, now)).sort((a, b) => startOf(b) - startOf(a));
  return [
    { group: 'Upcoming', items: upcoming.map(option) },
    { group: 'Past', items: past.map(option) },
  ].filter((g) => g.items.length > 0);
}

/** The event the panel starts on: the one asked for (?event=), else the next upcoming, else the newest. */
export function defaultSnippetEvent(events: readonly SnippetEvent[], asked: string | null, now: number = Date.now()): string | null {
  if (asked && events.some((e) => e.details.urlName === asked)) return asked;
  const next = snippetOptions(events, now).find((g) => g.group === 'Upcoming')?.items[0];
  if (next) return next.value;
  const newest = [...events].sort((a, b) => b.details.dateCreated.localeCompare(a.details.dateCreated))[0];
  return newest?.details.urlName ?? null;
}
