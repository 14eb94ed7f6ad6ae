import { describe, expect, it } from 'vitest';
import { embedBasename } from './embed';
import { withBase } from './site-router';

// Issue 28: the embeddable pages live under /embed; the site's router takes it as its basename.
describe('the widget’s basename', () => {
  it('is /embed on the embeddable pages only', () => {
    expect(embedBasename('/embed/gala/tickets')).toBe('/embed');
    expect(embedBasename('/embed')).toBe('/embed');
    expect(embedBasename('/embedded-show/tickets')).toBe('');
    expect(embedBasename('/gala/tickets')).toBe('');
  });

  it('prefixes the app’s own paths, never another address', () => {
    expect(withBase('/gala/cart', '/embed')).toBe('/embed/gala/cart');
    expect(withBase('/gala/cart', '')).toBe('/gala/cart');
    expect(withBase('//evil.example/x', '/embed')).toBe('//evil.example/x');
    expect(withBase('https://pay.example/x', '/embed')).toBe('https://pay.example/x');
  });
});
