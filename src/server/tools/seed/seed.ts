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
  if (await referenceDataMirrored(client)) return;
  const { styles: STYLES, categories: EDIT_MATERIAL_CATEGORIES, materials: EDIT_MATERIALS } = catalog();
  await client.$transaction(async (tx) => {
    for (const s of STYLES) {
      await tx.style.upsert({ where: { id: s.id }, create: { id: s.id, name: s.name, description: s.description, sort: s.sort }, update: { name: s.name, description: s.description, sort: s.sort } });
    }
    for (const c of EDIT_MATERIAL_CATEGORIES) {
      await tx.editMaterialCategory.upsert({ where: { id: c.id }, create: { id: c.id, name: c.name, description: c.description, sort: c.sort }, update: { name: c.name, description: c.description, sort: c.sort } });
    }
    // Free the sort slots first so reordering the catalogue never trips the unique index.
    await tx.$executeRaw`update "EditMaterial" set sort = -sort - 1000000 where sort >= 0`;
    for (const [index, m] of EDIT_MATERIALS.entries()) {
      const data = { categoryId: m.categoryId, name: m.name, description: m.description, withdrawn: m.withdrawn, texture: m.texture as object, sort: index };
      await tx.editMaterial.upsert({ where: { id: m.id }, create: { id: m.id, ...data }, update: data });
    }
  }, { timeout: 60_000 });
}

/** Whether the tables hold what seedReferenceData would write: the catalogue's rows, equal, and no other material in a listed place. */
export async function referenceDataMirrored(client: Db): Promise<boolean> {
  const { styles, categories, materials } = catalog();
  const [styleRows, categoryRows, materialRows] = await Promise.all([
    client.style.findMany({ select: { id: true, name: true, description: true, sort: true } }),
    client.editMaterialCategory.findMany({ select: { id: true, name: true, description: true, sort: true } }),
    client.editMaterial.findMany({ select: { id: true, categoryId: true, name: true, description: true, withdrawn: true, texture: true, sort: true } }),
  ]);
  const same = (rows: { id: string }[], wanted: { id: string }[]) => {
    const byId = new Map(rows.map((row) => [row.id, row]));
    return wanted.every((want) => isDeepStrictEqual(byId.get(want.id), want));
  };
  const listed = new Set<string>(materials.map((m) => m.id));
  return (
    same(styleRows, styles.map((s) => ({ id: s.id, name: s.name, description: s.description, sort: s.sort }))) &&
    same(categoryRows, categories.map((c) => ({ id: c.id, name: c.name, description: c.description, sort: c.sort }))) &&
    same(materialRows, materials.map((m, index) => ({ id: m.id, categoryId: m.categoryId, name: m.name, description: m.description, withdrawn: m.withdrawn, texture: m.texture, sort: index }))) &&
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
