import { describe, expect, it } from 'vitest';
import { csvHeader, csvRows, escapeCell, moneyCell } from './csv.js';

describe('CSV cells', () => {
  it('makes cells a spreadsheet would run as formulas inert', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(escapeCell(text)).toBe(`'${text}`);
    for (const text of ['Zoé', 'a=b', '', ' =x']) expect(escapeCell(text)).toBe(text);
  });

  it('writes cents as plain dollars', () => {
    expect([0, 5, 1234, 123456, -250].map(moneyCell)).toEqual(['0.00', '0.05', '12.34', '1234.56', '-2.50']);
  });

  it('starts with a BOM, ends rows with CRLF, quotes commas and quotes, and never escapes our own numbers', () => {
    type R = { name: string; total: number; count: number };
    const columns = [
      { header: 'Name', value: (r: R) => r.name },
      { header: 'Total', value: (r: R) => r.total, money: true },
      { header: 'Count', value: (r: R) => r.count },
    ];
    expect(csvHeader(columns)).toBe('\uFEFFName,Total,Count\r\n');
    expect(csvRows(columns, [{ name: 'Doe, "J"', total: -100, count: -1 }, { name: '-x', total: 1, count: 2 }])).toBe('"Doe, ""J""",-1.00,-1\r\n\'-x,0.01,2\r\n');
  });
});
