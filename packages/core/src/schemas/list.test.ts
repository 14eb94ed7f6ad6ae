import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFilters, encodeFilters, FILTER_OPS, type Filter } from './list.js';

const field = fc.stringMatching(/^details\.[A-Za-z_][A-Za-z0-9_]{0,10}$/);
const filter = fc.record({ field, op: fc.constantFrom(...FILTER_OPS), value: fc.string({ unit: 'binary' }) });

describe('list filters on the wire', () => {
  it('round-trips any value, alone or several joined with ";" in one parameter', () => {
    fc.assert(
      fc.property(fc.array(filter, { minLength: 1, maxLength: 4 }), (filters: Filter[]) => {
        const wire = encodeFilters(filters);
        // A filter whose value is empty or blank is still a filter.
        expect(decodeFilters(wire)).toEqual({ filters });
        expect(decodeFilters(wire.join(';'))).toEqual({ filters });
      }),
    );
  });

  it('keeps separators, escapes and operator characters literal', () => {
    const values = ['a=b;c', ';', 'a\\;b', '\\', 'x\\', '=5', '<=5', '>x', 'a<=b', ' padded ', '%3B', 'a&b=c#d', '?q', 'don\'t "quote"'];
    for (const value of values) {
      for (const op of FILTER_OPS) {
        const f: Filter = { field: 'details.name', op, value };
        expect(decodeFilters(encodeFilters([f]))).toEqual({ filters: [f] });
      }
    }
    expect(encodeFilters([{ field: 'details.name', op: '=', value: 'a=b;c' }])).toEqual(['details.name=a=b\\;c']);
    expect(encodeFilters([{ field: 'details.n', op: '<', value: '=5' }])).toEqual(['details.n<\\=5']);
  });

  it('still reads unescaped filters as before (spec §7 ?filters=details.url={url})', () => {
    expect(decodeFilters('details.url=acme')).toEqual({ filters: [{ field: 'details.url', op: '=', value: 'acme' }] });
    expect(decodeFilters('details.a=1;details.b>=2')).toEqual({
      filters: [
        { field: 'details.a', op: '=', value: '1' },
        { field: 'details.b', op: '>=', value: '2' },
      ],
    });
    expect(decodeFilters(['details.a=x', ' details.b<3'])).toEqual({
      filters: [
        { field: 'details.a', op: '=', value: 'x' },
        { field: 'details.b', op: '<', value: '3' },
      ],
    });
    expect(decodeFilters(undefined)).toEqual({ filters: [] });
    expect(decodeFilters('nonsense')).toEqual({ invalid: 'nonsense' });
    expect(decodeFilters('details.a=1;c')).toEqual({ invalid: 'c' });
  });
});
