// @node-lines same: our parsing of PostgreSQL timestamp text
import { describe, expect, it } from 'vitest';
import { parseUtcEpochMs, parseUtcTimestamp, sqlTimestamp, sqlTimestampOfMs } from './db';

/** What PostgreSQL sends for a `timestamp(3)` column, from the UTC instant. */
function pgText(date: Date): string {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const [day, time] = iso.slice(0, -1).split('T') as [string, string];
  // PostgreSQL drops trailing zeros of the fraction, and the fraction when it is zero.
  const trimmed = time.replace(/\.?0+$/, '');
  return `${day} ${trimmed.includes('.') || trimmed.length > 8 ? trimmed : time.slice(0, 8)}`;
}

describe('parseUtcTimestamp', () => {
  it('reads PostgreSQL timestamp text as the same UTC instant, to the millisecond', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 5_000; i++) {
      const instant = new Date(Math.floor(random() * Date.UTC(2200, 0, 1)));
      expect(parseUtcTimestamp(pgText(instant)).getTime()).toBe(instant.getTime());
      expect(parseUtcEpochMs(pgText(instant))).toBe(instant.getTime());
    }
  });

  it('handles fractions of every length and whole seconds', () => {
    expect(parseUtcTimestamp('2026-11-22 15:04:05').toISOString()).toBe('2026-11-22T15:04:05.000Z');
    expect(parseUtcTimestamp('2026-11-22 15:04:05.1').toISOString()).toBe('2026-11-22T15:04:05.100Z');
    expect(parseUtcTimestamp('2026-11-22 15:04:05.12').toISOString()).toBe('2026-11-22T15:04:05.120Z');
    expect(parseUtcTimestamp('2026-11-22 15:04:05.123').toISOString()).toBe('2026-11-22T15:04:05.123Z');
    expect(parseUtcTimestamp('2026-12-31 23:59:59.9996').toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('takes the general path for years before 1000', () => {
    expect(parseUtcTimestamp('0099-03-04 05:06:07.5').toISOString()).toBe('0099-03-04T05:06:07.500Z');
    expect(parseUtcEpochMs('0099-03-04 05:06:07.5')).toBe(Date.parse('0099-03-04T05:06:07.500Z'));
  });

  it('gives an unreadable value as NaN, as an invalid Date’s time', () => {
    expect(parseUtcEpochMs('infinity')).toBeNaN();
    expect(parseUtcTimestamp('infinity').getTime()).toBeNaN();
  });
});

describe('sqlTimestampOfMs', () => {
  it('is sqlTimestamp of the same instant: within a second, across seconds, before 1970', () => {
    const instants = [Date.UTC(2026, 11, 6, 13, 0, 0, 0), Date.UTC(2026, 11, 6, 13, 0, 0, 7), Date.UTC(2026, 11, 6, 13, 0, 0, 45), Date.UTC(2026, 11, 6, 13, 0, 0, 999), Date.UTC(2026, 11, 6, 13, 0, 1, 0), -1, -1_500, 0];
    let seed = 7;
    for (let i = 0; i < 2_000; i++) instants.push(Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * Date.UTC(2200, 0, 1)));
    for (const ms of instants) expect(sqlTimestampOfMs(ms)).toBe(sqlTimestamp(new Date(ms)));
  });
});
