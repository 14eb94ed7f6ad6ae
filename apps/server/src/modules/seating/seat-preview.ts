import {
  SEAT_NOT_FOR_SALE_COLOUR,
  SEAT_RADIUS,
  SEAT_STAGE_COLOUR,
  SEAT_TAKEN_COLOUR,
  seatCategoryColour,
  seatPlanBox,
  seatStageRect,
} from '@marquee/core';
import sharp from 'sharp';
import type { Deps } from '../../deps.js';
import { notFound } from '../../platform/errors.js';
import * as repo from './repository.js';
import { readSeatMap, readSeatStates } from './seat-map.js';

// Issue 27 (paint): the seat map as a small PNG, every seat a block of pixels in its state's colour
// (the canvas's colours, core seating.ts), so the ticket menu paints the map with its first paint,
// before the app, the plan and the map's code arrive (and without JavaScript). The ticket menu's
// HTML carries it inline (event-pages), and this route answers it for a page the app rendered. The
// raster of the plan (where each seat's pixels are) is computed once per seating version; an image
// is drawn and encoded once per states' version.

/** The image's longest side at most (a phone's canvas is about 1,170 device pixels wide). */
const MAX_SIDE = 1200;
/** At most this many pixels per map unit (a small hall's seats are blocks, not dots). */
const MAX_SCALE = 2;

type Raster = { width: number; height: number; side: number; at: Int32Array; cats: Int16Array; categories: number; base: Buffer };

export type SeatPreview = { etag: string; png: Buffer; width: number; height: number };

const rasters = new Map<string, Promise<Raster>>();
const images = new Map<string, Promise<SeatPreview>>();
const KEPT = 64;

function keep<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= KEPT) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

async function rasterOf(deps: Deps, tenantId: string, eventId: string): Promise<Raster> {
  // The plan the map itself reads (seat-map.ts): each seat as [section, row, seat, x, y, category, flags], by number.
  const plan = await readSeatMap({ deps, tenantId, eventId });
  const seats = plan.seats.map(([, , , x, y, category]) => ({ x, y, category }));
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const s of seats) {
    if (s.x < minX) minX = s.x;
    if (s.x > maxX) maxX = s.x;
    if (s.y < minY) minY = s.y;
    if (s.y > maxY) maxY = s.y;
  }
  // The canvas's bounds (core seatPlanBox): the image shown "contain" in the map's frame is the canvas's first view.
  const box = seatPlanBox(minX, minY, maxX, maxY);
  const scale = Math.min(MAX_SCALE, MAX_SIDE / box.w, MAX_SIDE / box.h);
  const width = Math.max(1, Math.round(box.w * scale));
  const height = Math.max(1, Math.round(box.h * scale));
  // A seat is a square of its diameter, at least one pixel.
  const side = Math.max(1, Math.floor(2 * SEAT_RADIUS * scale));
  const at = new Int32Array(seats.length);
  const cats = new Int16Array(seats.length);
  seats.forEach((s, i) => {
    const px = Math.min(width - side, Math.max(0, Math.round((s.x - box.x) * scale - side / 2)));
    const py = Math.min(height - side, Math.max(0, Math.round((s.y - box.y) * scale - side / 2)));
    at[i] = py * width + px;
    cats[i] = s.category;
  });
  const base = Buffer.alloc(width * height * 4);
  const stage = seatStageRect(box);
  const [r, g, b] = rgb(SEAT_STAGE_COLOUR);
  const sx0 = Math.round((stage.x - box.x) * scale);
  const sx1 = Math.round((stage.x + stage.w - box.x) * scale);
  const sy0 = Math.round((stage.y - box.y) * scale);
  const sy1 = Math.max(sy0 + 1, Math.round((stage.y + stage.h - box.y) * scale));
  for (let y = Math.max(0, sy0); y < Math.min(height, sy1); y++) {
    for (let x = Math.max(0, sx0); x < Math.min(width, sx1); x++) base.set([r, g, b, 255], (y * width + x) * 4);
  }
  return { width, height, side, at, cats, categories: Math.max(1, plan.categories.length), base };
}

async function drawn(raster: Raster, states: string, etag: string): Promise<SeatPreview> {
  const { width, height, side, at, cats, categories } = raster;
  const px = Buffer.from(raster.base);
  const palette = [...Array.from({ length: categories }, (_, i) => rgb(seatCategoryColour(i))), rgb(SEAT_NOT_FOR_SALE_COLOUR), rgb(SEAT_TAKEN_COLOUR)];
  const [X, T] = [categories, categories + 1];
  for (let i = 0; i < at.length; i++) {
    // As the canvas (seat-canvas.tsx bucketsOf): not for sale, held or sold, else free in its category's colour.
    const state = states.charCodeAt(i);
    const c = state === 120 /* x */ ? X : state === 104 /* h */ || state === 115 /* s */ ? T : cats[i]! < 0 ? categories - 1 : Math.min(cats[i]!, categories - 1);
    const [r, g, b] = palette[c]!;
    for (let dy = 0; dy < side; dy++) {
      let o = (at[i]! + dy * width) * 4;
      for (let dx = 0; dx < side; dx++, o += 4) {
        px[o] = r;
        px[o + 1] = g;
        px[o + 2] = b;
        px[o + 3] = 255;
      }
    }
  }
  // Truecolour: sharp's indexed PNGs go through a quantiser that merges the near greys (taken, not
  // for sale, the stage) even at quality 100, and a taken seat must never look like another state.
  // A 20,000-seat arena is about 11 KB (mostly transparent rows, which deflate well).
  const png = await sharp(px, { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toBuffer();
  return { etag, png, width, height };
}

/**
 * The map's preview as it is now, or null for an event without seats. 404 for an event the public
 * may not see (readSeatStates's rule, as the plan and the states).
 */
export async function readSeatPreview({ deps, tenantId, eventId }: { deps: Deps; tenantId: string; eventId: string }): Promise<SeatPreview> {
  const states = await readSeatStates({ deps, tenantId, eventId });
  const version = await repo.eventSeatingVersion(deps.db, tenantId, eventId);
  if (version === null || states.states === '') throw notFound();
  const etag = `"p${version}-${states.version}"`;
  const planKey = `${tenantId}/${eventId}/${version}`;
  let image = images.get(`${planKey}|${etag}`);
  if (!image) {
    let raster = rasters.get(planKey);
    if (!raster) {
      raster = keep(rasters, planKey, rasterOf(deps, tenantId, eventId));
      raster.catch(() => rasters.delete(planKey));
    }
    const r = raster;
    image = keep(
      images,
      `${planKey}|${etag}`,
      r.then((x) => drawn(x, states.states, etag)),
    );
    image.catch(() => images.delete(`${planKey}|${etag}`));
  }
  return image;
}

/** The preview's address (the app's <img> asks it; the server-rendered ticket menu carries the image inline instead). */
export const seatPreviewPath = (tenantId: string, eventId: string) => `/api/p/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/seat-preview.png`;
