import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { escapeLiteral } from './client.js';

// Issue 23 (bo3): runInOneTrip writes a sale's parameters in as literals with its own escapeLiteral
// (one native replace), which must write exactly what pg.escapeLiteral writes.
describe('escapeLiteral', () => {
  it("writes pg.escapeLiteral's text for quotes, backslashes, JSON, unicode and the empty string", () => {
    const samples = [
      '',
      'plain',
      "it's",
      "''",
      '\\',
      'a\\b',
      "O'Brien \\ co",
      '\\\'',
      JSON.stringify({ name: "Door's \"night\"", path: 'C:\\tmp', emoji: '🎟️', nul: 'x\ty\nz' }),
      '$1 $$ E\'x\'',
      'ü'.repeat(300),
    ];
    for (const s of samples) expect(escapeLiteral(s)).toBe(pg.escapeLiteral(s));
  });

  it('agrees with pg.escapeLiteral on random strings of quotes, backslashes and letters', () => {
    const alphabet = ["'", '\\', 'a', 'E', ' ', '"', '\n', 'é'];
    let seed = 23;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const s = Array.from({ length: Math.floor(next() * 20) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      expect(escapeLiteral(s)).toBe(pg.escapeLiteral(s));
    }
  });
});
