// @node-lines same: our serialisation of the generation object
import { describe, expect, it } from 'vitest';
import { toApiGenerations, type GenerationView, type GenerationViewMs } from './serialize';

const base: GenerationView = {
  id: 'gen_a',
  organizationId: 'org_a',
  mode: 'test',
  type: 'render',
  status: 'in_progress',
  input: { quality: '2k', scale: null, style: null },
  metadata: null,
  outputs: null,
  costAmount: 10,
  discountPercent: 0,
  amountRefunded: 0,
  errorCode: null,
  errorMessage: null,
  createdAt: new Date('2026-12-01T10:00:00.750Z'),
  startedAt: null,
  completedAt: null,
  expiresAt: null,
  imagesDeletedAt: null,
  progress: null,
  progressStage: 'queued',
};

describe('the generation object: expires_at', () => {
  it('while in progress: created_at + 24 h (provisional); once ended: the stored end + 24 h, in whole seconds', async () => {
    const ended = { ...base, id: 'gen_b', status: 'failed' as const, completedAt: new Date('2026-12-01T10:05:00.999Z'), expiresAt: new Date('2026-12-02T10:05:00.999Z'), errorCode: 'engine_failed', errorMessage: 'x' };
    const [running, failed] = await toApiGenerations([base, ended]);
    const createdAt = Math.floor(Date.parse('2026-12-01T10:00:00.750Z') / 1000);
    expect(running).toMatchObject({ created_at: createdAt, completed_at: null, expires_at: createdAt + 24 * 3600, output: [] });
    expect(failed).toMatchObject({ completed_at: Math.floor(Date.parse('2026-12-01T10:05:00.999Z') / 1000), expires_at: Math.floor(Date.parse('2026-12-02T10:05:00.999Z') / 1000) });
  });
});

describe('the generation object from timestamps in milliseconds (the /v1 reads)', () => {
  it('is the object the same row with Dates gives, before and after 1970 and with the images deleted', async () => {
    const ms = (d: Date | null) => (d === null ? null : d.getTime());
    const rows: GenerationView[] = [
      base,
      { ...base, id: 'gen_c', status: 'succeeded', startedAt: new Date('2026-12-01T10:00:01.001Z'), completedAt: new Date('2026-12-01T10:00:09.999Z'), expiresAt: new Date('2026-12-02T10:00:09.999Z'), imagesDeletedAt: new Date('2026-12-02T10:00:10.500Z'), outputs: [{ key: 'o/a.webp', contentType: 'image/webp', width: 2, height: 2 }] },
      { ...base, id: 'gen_d', status: 'canceled', createdAt: new Date('1969-12-31T23:59:58.500Z'), completedAt: new Date(0), expiresAt: new Date(24 * 3600 * 1000) },
    ];
    const inMs: GenerationViewMs[] = rows.map((r) => ({ ...r, createdAt: r.createdAt.getTime(), startedAt: ms(r.startedAt), completedAt: ms(r.completedAt), expiresAt: ms(r.expiresAt), imagesDeletedAt: ms(r.imagesDeletedAt) }));
    const expected = await toApiGenerations(rows);
    expect(await toApiGenerations(inMs)).toStrictEqual(expected);
    expect(expected.map((g) => [g.created_at, g.completed_at, g.expires_at, g.output.length])).toEqual([
      [1796119200, null, 1796119200 + 24 * 3600, 0],
      [1796119200, 1796119209, 1796205609, 0],
      [-2, 0, 24 * 3600, 0],
    ]);
  });
});
