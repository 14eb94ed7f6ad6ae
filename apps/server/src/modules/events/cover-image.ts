import { randomBytes } from 'node:crypto';
import { COVER_MAX_PIXELS, COVER_MIN_HEIGHT, COVER_MIN_WIDTH, M } from '@marquee/core';
import sharp from 'sharp';
import type { Storage } from '../../platform/storage.js';
import { sniffContentType } from '../../platform/content-type.js';
import { AppError } from '../../platform/errors.js';

// Issue 15: an event's cover image, made once at upload into the crops its pages print
// (docs/decisions.md "Event cover image"). Only the crops are kept: metadata stripped, rotated
// upright, in sRGB; the upload itself (with its EXIF location, camera, ...) is never stored.

type Crop = { width: number; height: number; format: 'webp' | 'jpeg'; contentType: string };

/** Each crop by its file name on the event site: /{eventName}/assets/cover-{id}-{name}. */
export const COVER_CROPS = {
  /** The event page's hero (2:1), and its phone size. */
  'hero-1600.webp': { width: 1600, height: 800, format: 'webp', contentType: 'image/webp' },
  'hero-800.webp': { width: 800, height: 400, format: 'webp', contentType: 'image/webp' },
  /** The link preview card of Open Graph and Twitter (1.91:1); JPEG, which every crawler reads. */
  'social.jpg': { width: 1200, height: 630, format: 'jpeg', contentType: 'image/jpeg' },
  /** The ticket PDF's header (pdfkit embeds JPEG and PNG only). */
  'ticket.jpg': { width: 600, height: 300, format: 'jpeg', contentType: 'image/jpeg' },
} as const satisfies Record<string, Crop>;
export type CoverCropName = keyof typeof COVER_CROPS;
const CROP_NAMES = Object.keys(COVER_CROPS) as CoverCropName[];

const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp']);
const SHARP_FORMATS = new Set(['jpeg', 'png', 'webp']);

/** A new cover's id: its URLs never serve other bytes, so they may be cached for good. */
export const newCoverImageId = () => randomBytes(8).toString('hex');

export const coverStorageKey = (tenantId: string, eventId: string, coverImageId: string, crop: CoverCropName) =>
  `tenants/${tenantId}/events/${eventId}/cover/${coverImageId}/${crop}`;

/** The event's cover crops as paths on its event site (null when it has none). */
export function coverPaths(row: { urlName: string; coverImageId: string | null }) {
  const path = (crop: CoverCropName) => (row.coverImageId ? `/${row.urlName}/assets/cover-${row.coverImageId}-${crop}` : null);
  return { coverImageUrl: path('hero-1600.webp'), coverImageSmallUrl: path('hero-800.webp'), socialImageUrl: path('social.jpg') };
}

const decodeOptions = { limitInputPixels: COVER_MAX_PIXELS, failOn: 'error' } as const;

/**
 * Reads an uploaded picture (JPEG, PNG or WebP by its bytes, decoded in full) and makes every crop.
 * `trusted`: the seed's own SVG, which an upload may never be.
 */
export async function makeCoverCrops(bytes: Buffer, opts: { trusted?: boolean } = {}): Promise<Record<CoverCropName, Buffer>> {
  if (!opts.trusted) {
    const sniffed = sniffContentType(bytes);
    if (!sniffed || !ACCEPTED.has(sniffed)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', M.coverType);
  }
  let upright: { data: Buffer; info: sharp.OutputInfo };
  try {
    const meta = await sharp(bytes, decodeOptions).metadata();
    if (!opts.trusted && !SHARP_FORMATS.has(meta.format ?? '')) throw new AppError('UNSUPPORTED_MEDIA_TYPE', M.coverType);
    const { width, height } = meta.autoOrient ?? meta;
    if (!width || !height) throw new AppError('BAD_REQUEST', M.coverUnreadable);
    if (width * height > COVER_MAX_PIXELS) throw new AppError('PAYLOAD_TOO_LARGE', M.coverTooManyPixels);
    if (width < COVER_MIN_WIDTH || height < COVER_MIN_HEIGHT) throw new AppError('BAD_REQUEST', M.coverTooSmall);
    // Decoded once (in full, so a truncated or corrupt file fails here), upright, at most 2400 px:
    // every crop is made from this, not from the 50 MP original four times.
    upright = await sharp(bytes, decodeOptions)
      .autoOrient()
      .resize(2400, 2400, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw new AppError('PAYLOAD_TOO_LARGE', M.coverTooManyPixels);
    throw new AppError('BAD_REQUEST', M.coverUnreadable);
  }
  const { data, info } = upright;
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
  const out = await Promise.all(
    CROP_NAMES.map(async (name) => {
      const crop: Crop = COVER_CROPS[name];
      // The picture's busiest part stays in the frame (faces, the stage), not just its middle.
      const pipeline = sharp(data, raw).resize(crop.width, crop.height, { fit: 'cover', position: sharp.strategy.attention });
      const encoded = crop.format === 'webp' ? pipeline.webp({ quality: 78, effort: 4 }) : pipeline.jpeg({ quality: 80, mozjpeg: true, progressive: true });
      return [name, await encoded.toBuffer()] as const;
    }),
  );
  return Object.fromEntries(out) as Record<CoverCropName, Buffer>;
}

/** Stores a cover's crops under a new id and answers the id; the caller points the event at it. */
export async function storeCoverCrops(storage: Storage, opts: { tenantId: string; eventId: string; crops: Record<CoverCropName, Buffer> }): Promise<string> {
  const id = newCoverImageId();
  await Promise.all(CROP_NAMES.map((name) => storage.put(coverStorageKey(opts.tenantId, opts.eventId, id, name), opts.crops[name], COVER_CROPS[name].contentType)));
  return id;
}

export async function deleteCoverCrops(storage: Storage, opts: { tenantId: string; eventId: string; coverImageId: string }) {
  await Promise.all(CROP_NAMES.map((name) => storage.delete(coverStorageKey(opts.tenantId, opts.eventId, opts.coverImageId, name))));
}

const FILE_RE = /^cover-([0-9a-f]{16})-(.+)$/;

/** A cover file name of the event site, or null: cover-{id}-{crop}. */
export function parseCoverFile(file: string): { coverImageId: string; crop: CoverCropName } | null {
  const match = FILE_RE.exec(file);
  if (!match || !CROP_NAMES.includes(match[2] as CoverCropName)) return null;
  return { coverImageId: match[1]!, crop: match[2] as CoverCropName };
}
