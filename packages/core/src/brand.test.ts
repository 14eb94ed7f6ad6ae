import { describe, expect, it } from 'vitest';
import { brandShades, checkBrandColor, contrastRatio, M_BRAND, zBrandColor as ZBrandColorProbe } from './brand.js';

describe('brand colour', () => {
  it('takes #rrggbb dark enough for white text, lower-cased', () => {
    expect(checkBrandColor('#5B3CC4')).toEqual({ ok: true, color: '#5b3cc4' });
    expect(checkBrandColor(' #0b6e4f ')).toEqual({ ok: true, color: '#0b6e4f' });
  });
  it('refuses other shapes and light colours, with the reason', () => {
    for (const bad of ['5b3cc4', '#5b3cc', '#5b3cc4ff', 'red', 'rgb(1,2,3)', '#ggg000', '']) expect(checkBrandColor(bad), bad).toEqual({ ok: false, message: M_BRAND.colorFormat });
    for (const light of ['#ffffff', '#ffd400', '#7fb3ff', '#8a8a8a']) expect(checkBrandColor(light), light).toEqual({ ok: false, message: M_BRAND.colorContrast });
  });
  it('computes WCAG contrast', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
  });
  it('the request field: null for the default, the colour normalised, a message otherwise', () => {
    expect(ZBrandColorProbe.parse(null)).toBeNull();
    expect(ZBrandColorProbe.parse('#0B6E4F')).toBe('#0b6e4f');
    expect(ZBrandColorProbe.safeParse('#ffff00').error?.issues[0]?.message).toBe(M_BRAND.colorContrast);
  });
  it('shades for the site', () => {
    expect(brandShades('#5b3cc4')).toEqual({ brand: '#5b3cc4', dark: '#462e97', soft: '#f2effa' });
  });
});
