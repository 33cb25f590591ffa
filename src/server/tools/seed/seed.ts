import { isDeepStrictEqual } from 'node:util';
import { transaction, type Db } from '@/server/platform/db';
import { catalog } from '@/server/capabilities/reference/catalog';
import { createOrganization, createUser } from '@/server/capabilities/orgs/orgs';
import { createApiKey } from '@/server/capabilities/keys/keys';
import { randomBase62 } from '@/server/platform/ids';

/**
 * Reference data is a data file (src/server/capabilities/reference/catalog.json, read by catalog.ts) mirrored
 * into the database at every start for the listings: upserts, so edits to the catalogue land on
 * existing installs; withdrawn materials stay (an edit naming them answers 404). A start whose
 * database mirrors the catalogue already (every start but the first after a catalogue change)
 * only reads it: three queries instead of some 180 upserts and a rewrite of every material row.
 */
export async function seedReferenceData(client: Db): Promise<void> {
  const rows = referenceRows();
  if (await referenceDataMirrored(client, rows)) return;
  await client.$transaction(async (tx) => {
    for (const { id, ...data } of rows.styles) await tx.style.upsert({ where: { id }, create: { id, ...data }, update: data });
    for (const { id, ...data } of rows.categories) await tx.editMaterialCategory.upsert({ where: { id }, create: { id, ...data }, update: data });
    // Free the sort slots first so reordering the catalogue never trips the unique index.
    await tx.$executeRaw`update "EditMaterial" set sort = -sort - 1000000 where sort >= 0`;
    for (const { id, ...data } of rows.materials) {
      const row = { ...data, texture: data.texture as object };
      await tx.editMaterial.upsert({ where: { id }, create: { id, ...row }, update: row });
    }
  }, { timeout: 60_000 });
}

/** The catalogue as the rows seedReferenceData writes (a material's sort is its place in the catalogue). */
function referenceRows() {
  const { styles, categories, materials } = catalog();
  return {
    styles: styles.map((s) => ({ id: s.id, name: s.name, description: s.description, sort: s.sort })),
    categories: categories.map((c) => ({ id: c.id, name: c.name, description: c.description, sort: c.sort })),
    materials: materials.map((m, index) => ({ id: m.id, categoryId: m.categoryId, name: m.name, description: m.description, withdrawn: m.withdrawn, texture: m.texture, sort: index })),
  };
}

/** Whether the tables hold what seedReferenceData would write: the catalogue's rows, equal, and no other material in a listed place. */
export async function referenceDataMirrored(client: Db, rows = referenceRows()): Promise<boolean> {
  const [styleRows, categoryRows, materialRows] = await Promise.all([
    client.style.findMany({ select: { id: true, name: true, description: true, sort: true } }),
    client.editMaterialCategory.findMany({ select: { id: true, name: true, description: true, sort: true } }),
    client.editMaterial.findMany({ select: { id: true, categoryId: true, name: true, description: true, withdrawn: true, texture: true, sort: true } }),
  ]);
  const same = (found: { id: string }[], wanted: { id: string }[]) => {
    const byId = new Map(found.map((row) => [row.id, row]));
    return wanted.every((want) => isDeepStrictEqual(byId.get(want.id), want));
  };
  const listed = new Set<string>(rows.materials.map((m) => m.id));
  return (
    same(styleRows, rows.styles) &&
    same(categoryRows, rows.categories) &&
    same(materialRows, rows.materials) &&
    materialRows.every((row) => listed.has(row.id) || row.sort < 0)
  );
}

export interface DemoAccount {
  organizationId: string;
  testKey: string;
  liveKey: string;
  email: string;
  password: string;
}

/** First run only (no organization yet): a demo organization with keys and an owner login. */
export async function seedDemoIfEmpty(client: Db): Promise<DemoAccount | null> {
  const count = await client.organization.count();
  if (count > 0) return null;
  return transaction(async (tx) => {
    const org = await createOrganization(tx, { name: 'Demo organization', tier: 1, creditCents: 5_000 });
    const test = await createApiKey(tx, { organizationId: org.id, mode: 'test', name: 'Demo test key' });
    const live = await createApiKey(tx, { organizationId: org.id, mode: 'live', name: 'Demo live key' });
    const password = randomBase62(16);
    const email = 'owner@demo.roomtone.local';
    await createUser(tx, { email, password, organizationId: org.id, role: 'owner', name: 'Demo owner' });
    return { organizationId: org.id, testKey: test.secret, liveKey: live.secret, email, password };
  }, undefined, client);
}
