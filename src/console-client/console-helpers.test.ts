// @node-lines same: the console's browser code: it runs in the browser, not on a Node line
import { describe, expect, it } from 'vitest';
import { dateTime, money, unixFromInput } from './format';
import { usageCsv } from '@/components/usage/usage-csv';

describe('format', () => {
  it('shows cents as euros and unix seconds as UTC', () => {
    expect(money(5000)).toBe('€50.00');
    expect(money(-25)).toBe('-€0.25');
    expect(dateTime(0)).toBe('1970-01-01 00:00:00 UTC');
    expect(dateTime(null)).toBe('—');
  });
  it('reads a datetime-local value as UTC unix seconds', () => {
    expect(unixFromInput('2026-11-24T08:30')).toBe(Date.UTC(2026, 10, 24, 8, 30) / 1000);
    expect(unixFromInput('')).toBeUndefined();
    expect(unixFromInput('not a date')).toBeUndefined();
  });
});

describe('usageCsv', () => {
  it('writes one line per day with the chart columns', () => {
    const zeroTypes = { render: 0, edit: 0, decoration: 0, upscale: 0 };
    const csv = usageCsv([
      { date: '2026-11-23', by_type: { ...zeroTypes, upscale: 2 }, by_status: { succeeded: 1, failed: 0, canceled: 1, in_progress: 0 }, total: 2, spend_cents: 10 },
      { date: '2026-11-24', by_type: zeroTypes, by_status: { succeeded: 0, failed: 0, canceled: 0, in_progress: 0 }, total: 0, spend_cents: 0 },
    ]);
    expect(csv).toBe(
      'date,render,edit,decoration,upscale,succeeded,failed,canceled,in_progress,total,spend_cents\n' +
        '2026-11-23,0,0,0,2,1,0,1,0,2,10\n' +
        '2026-11-24,0,0,0,0,0,0,0,0,0,0\n',
    );
  });
});
