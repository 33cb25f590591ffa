import { describe, expect, it } from 'vitest';
import { money } from './format';

describe('money', () => {
  it('never shows a signed zero ("-€0.00 of €500.00" on the overview)', () => {
    expect(money(-0)).toBe('€0.00');
    expect(money(0)).toBe('€0.00');
    expect(money(-1)).toBe('-€0.01');
    expect(money(50_000)).toBe('€500.00');
  });
});
