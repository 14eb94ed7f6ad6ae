import { z } from 'zod';

// Issue 28: the tenant's brand colour (console Settings). It is the accent of the attendee site and
// the widget, of the mails and of the wallet passes. White text sits on it (buttons, the pass) and it
// is the colour of links on white, so it must keep a contrast of at least 4.5:1 with white (WCAG AA
// for normal text).

export const DEFAULT_BRAND_COLOR = '#5b3cc4';
export const BRAND_MIN_CONTRAST = 4.5;

export const M_BRAND = {
  colorFormat: 'Enter a colour as #RRGGBB, for example #5b3cc4.',
  colorContrast: 'This colour is too light for white text on it (a contrast of at least 4.5:1 is needed). Choose a darker shade.',
} as const;

const HEX_RE = /^#[0-9a-fA-F]{6}$/;

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG relative luminance of #rrggbb. */
export function luminance(hex: string): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = rgb(hex);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The colour, lower case, when it is #rrggbb with enough contrast against white; an error message otherwise. */
export function checkBrandColor(value: string): { ok: true; color: string } | { ok: false; message: string } {
  const v = value.trim();
  if (!HEX_RE.test(v)) return { ok: false, message: M_BRAND.colorFormat };
  if (contrastRatio(v, '#ffffff') < BRAND_MIN_CONTRAST) return { ok: false, message: M_BRAND.colorContrast };
  return { ok: true, color: v.toLowerCase() };
}

/** The request's field: a valid brand colour, or null for the default. */
export const zBrandColor = z
  .string({ error: M_BRAND.colorFormat })
  .max(20, M_BRAND.colorFormat)
  .transform((v, ctx) => {
    const found = checkBrandColor(v);
    if (!found.ok) {
      ctx.addIssue({ code: 'custom', message: found.message });
      return z.NEVER;
    }
    return found.color;
  })
  .nullable();

/** The site's shades of the colour: a darker one (hover) and a pale one (backgrounds). */
export function brandShades(hex: string): { brand: string; dark: string; soft: string } {
  const [r, g, b] = rgb(HEX_RE.test(hex) ? hex : DEFAULT_BRAND_COLOR);
  const mix = (to: number, t: number) => [r, g, b].map((c) => Math.round(c + (to - c) * t).toString(16).padStart(2, '0')).join('');
  return { brand: `#${mix(0, 0)}`, dark: `#${mix(0, 0.23)}`, soft: `#${mix(255, 0.92)}` };
}
