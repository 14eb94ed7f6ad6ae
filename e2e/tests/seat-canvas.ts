import { expect, type Page } from '@playwright/test';

// The seat map is one <canvas> (apps/web seat-canvas.tsx): tests find a seat where a person sees it.
// The plan comes from the public seat-map route (as the page reads it); the canvas's `data-view`
// ("k tx ty") places a plan point (x, y) at (x k + tx, y k + ty) CSS px inside the canvas.

/** [section index, row, seat, x, y, category index, flags] per seat number. */
export type PlanSeat = [number, string, string, number, number, number, number];
export type Plan = { sections: string[]; seats: PlanSeat[] };

export async function seatPlan(page: Page, tenantId: string, eventId: string): Promise<Plan> {
  // From the page itself (its origin, its cookies), as the map reads it.
  const plan = await page.evaluate(async (path) => {
    const res = await fetch(path);
    return res.ok ? ((await res.json()) as unknown) : `${res.status} ${await res.text()}`;
  }, `/api/p/tenants/${tenantId}/events/${eventId}/seat-map`);
  expect(typeof plan, String(plan)).toBe('object');
  return plan as Plan;
}

/** The seat number of a label such as "Stalls · Row B · Seat 2". */
export function seatNumber(plan: Plan, label: string): number {
  const n = plan.seats.findIndex((s) => `${plan.sections[s[0]]} · Row ${s[1]} · Seat ${s[2]}` === label);
  expect(n, label).toBeGreaterThanOrEqual(0);
  return n;
}

export const canvasOf = (page: Page) => page.getByTestId('seat-canvas');

/** The view's transform as the canvas last drew it. */
export async function viewOf(page: Page): Promise<{ k: number; tx: number; ty: number }> {
  const view = await canvasOf(page).getAttribute('data-view');
  expect(view, 'the map has drawn').toBeTruthy();
  const [k, tx, ty] = view!.split(' ').map(Number) as [number, number, number];
  return { k, tx, ty };
}

/** Where seat n is on the page now (viewport CSS px), after scrolling the map into view. */
export async function seatPoint(page: Page, plan: Plan, n: number): Promise<{ x: number; y: number }> {
  await canvasOf(page).scrollIntoViewIfNeeded();
  const box = (await canvasOf(page).boundingBox())!;
  const { k, tx, ty } = await viewOf(page);
  const s = plan.seats[n]!;
  return { x: box.x + s[3] * k + tx, y: box.y + s[4] * k + ty };
}

/** A tap (or a click, without touch) on seat n of the map. */
export async function tapSeat(page: Page, plan: Plan, n: number, touch = false) {
  const { x, y } = await seatPoint(page, plan, n);
  if (touch) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

/** Each plan's seat centres as one string ("x,y x,y …"), made once: the page is sent one string, not 20,000 arrays. */
const centres = new WeakMap<Plan, string>();

/**
 * The colour (#rrggbb) painted at the centre of each seat in view (null outside it), read from the canvas's pixels.
 * Issue 27 (pan3): one string each way. Passing the 20,000 seats as arrays (and 20,000 strings back) through
 * Playwright's argument serialisation took over 80 s a read on a machine at load 40, longer than the polls
 * reading it wait, so "every seat painted" timed out with every seat painted.
 */
export async function seatColours(page: Page, plan: Plan): Promise<Array<string | null>> {
  let xy = centres.get(plan);
  if (xy === undefined) centres.set(plan, (xy = plan.seats.map((s) => `${s[3]},${s[4]}`).join(' ')));
  const packed = await canvasOf(page).evaluate((el, xy) => {
    const canvas = el as HTMLCanvasElement;
    const [k, tx, ty] = (canvas.dataset.view ?? '1 0 0').split(' ').map(Number) as [number, number, number];
    const dpr = window.devicePixelRatio || 1;
    // Issue 27 (pan4): the map's canvas shows a bitmap (a 'bitmaprenderer' context, no getImageData of
    // its own): its pixels are read by copying it, unscaled, onto a scratch 2D canvas of the same size.
    const copy = document.createElement('canvas');
    [copy.width, copy.height] = [canvas.width, canvas.height];
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(canvas, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const hex = (v: number) => v.toString(16).padStart(2, '0');
    return xy
      .split(' ')
      .map((pair) => {
        const [x, y] = pair.split(',').map(Number) as [number, number];
        const px = Math.floor((x * k + tx) * dpr);
        const py = Math.floor((y * k + ty) * dpr);
        if (px < 0 || py < 0 || px >= canvas.width || py >= canvas.height) return '-';
        const i = (py * canvas.width + px) * 4;
        return `#${hex(data[i]!)}${hex(data[i + 1]!)}${hex(data[i + 2]!)}`;
      })
      .join(' ');
  }, xy);
  return packed.split(' ').map((c) => (c === '-' ? null : c));
}

export const TAKEN = '#c4c7d3';
export const MINE = '#1d1b2e';
