// @node-lines same: our month projection arithmetic
import { describe, expect, it } from 'vitest';
import { projectMonth } from './month-to-date';

describe('projectMonth: spend so far / days elapsed (today whole) × days in the month', () => {
  it('the 10th of a 30-day month: 100.00 spent projects 300.00, under a 500.00 limit', () => {
    const p = projectMonth(10_000, 50_000, new Date('2026-11-10T08:00:00Z'));
    expect(p).toEqual({ month: '2026-11-01', daysInMonth: 30, daysElapsed: 10, projected: 30_000, limitDay: null });
  });

  it('a projection past the limit names the day the limit is reached', () => {
    // 31 days, 200.00 in 4 days = 50.00 a day: 1,550.00 projected; a 500.00 limit is reached on day 10.
    const p = projectMonth(20_000, 50_000, new Date('2026-12-04T23:59:59Z'));
    expect(p).toMatchObject({ daysInMonth: 31, daysElapsed: 4, projected: 155_000, limitDay: '2026-12-10' });
  });

  it('a limit already reached is reached today; nothing spent projects nothing', () => {
    expect(projectMonth(50_000, 50_000, new Date('2026-02-20T12:00:00Z'))).toMatchObject({ daysInMonth: 28, limitDay: '2026-02-20' });
    expect(projectMonth(0, 50_000, new Date('2028-02-01T00:00:00Z'))).toMatchObject({ daysInMonth: 29, daysElapsed: 1, projected: 0, limitDay: null });
  });

  it('rounds to whole cents', () => {
    expect(projectMonth(1_000, 50_000, new Date('2026-11-03T00:00:00Z')).projected).toBe(10_000);
    expect(projectMonth(1_001, 50_000, new Date('2026-11-07T00:00:00Z')).projected).toBe(Math.round((1_001 / 7) * 30));
  });
});
