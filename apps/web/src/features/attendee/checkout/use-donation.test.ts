import { describe, expect, it } from 'vitest';
import { choiceFor } from './use-donation';

describe('the donation shown again for a held order (a declined card)', () => {
  it('is None for no donation, the preset for a preset amount, and Other with the amount otherwise', () => {
    expect(choiceFor(0)).toEqual({ choice: 'none', text: '' });
    expect(choiceFor(1000)).toEqual({ choice: 1000, text: '' });
    expect(choiceFor(2500)).toEqual({ choice: 2500, text: '' });
    expect(choiceFor(1250)).toEqual({ choice: 'custom', text: '12.50' });
    expect(choiceFor(100_000)).toEqual({ choice: 'custom', text: '1000.00' });
  });
});
