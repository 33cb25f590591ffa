import { db } from '@/server/platform/db';
import { invalidParam, notFound } from '@/server/platform/errors';

/** Styles, edit materials and their categories, as the API shows them. */
export interface ApiStyle {
  object: 'style';
  id: string;
  name: string;
  description: string;
}
export interface ApiEditMaterialCategory {
  object: 'edit_material_category';
  id: string;
  name: string;
  description: string;
}
export interface ApiEditMaterial {
  object: 'edit_material';
  id: string;
  name: string;
  description: string;
  category: string;
}

export async function listStyles(): Promise<ApiStyle[]> {
  const rows = await db().style.findMany({ orderBy: { sort: 'asc' } });
  return rows.map((s) => ({ object: 'style', id: s.id, name: s.name, description: s.description }));
}

export async function listEditMaterialCategories(): Promise<ApiEditMaterialCategory[]> {
  const rows = await db().editMaterialCategory.findMany({ orderBy: { sort: 'asc' } });
  return rows.map((c) => ({ object: 'edit_material_category', id: c.id, name: c.name, description: c.description }));
}

export interface MaterialListParams {
  limit: number;
  after?: string | undefined;
  category?: string | undefined;
  search?: string | undefined;
}

/**
 * Paginated in catalogue order; withdrawn materials are never listed. A search ranks the
 * materials whose name matches before those that match only by category ("leather" lists
 * Cognac Leather before the fabrics of the "… and leather" category), catalogue order within
 * each; `after` then continues in that ranked order. The catalogue is small (about 150
 * materials), so the ranking of a search is done on the whole match set.
 */
export async function listEditMaterials(params: MaterialListParams): Promise<{ data: ApiEditMaterial[]; hasMore: boolean }> {
  if (params.category !== undefined) {
    const category = await db().editMaterialCategory.findUnique({ where: { id: params.category } });
    if (!category) throw invalidParam('category', `Unknown category '${params.category}'; list the edit material categories to see the valid ids.`);
  }
  const search = params.search?.trim();
  if (search) return searchEditMaterials(params, search);
  let afterSort: number | undefined;
  if (params.after !== undefined) {
    const cursor = await db().editMaterial.findFirst({ where: { id: params.after, withdrawn: false }, select: { sort: true } });
    if (!cursor) throw afterRefused(params.after);
    afterSort = cursor.sort;
  }
  const rows = await db().editMaterial.findMany({
    where: {
      withdrawn: false,
      ...(params.category ? { categoryId: params.category } : {}),
      ...(afterSort !== undefined ? { sort: { gt: afterSort } } : {}),
    },
    orderBy: { sort: 'asc' },
    take: params.limit + 1,
  });
  return { data: rows.slice(0, params.limit).map(toApiMaterial), hasMore: rows.length > params.limit };
}

async function searchEditMaterials(params: MaterialListParams, search: string): Promise<{ data: ApiEditMaterial[]; hasMore: boolean }> {
  const rows = await db().editMaterial.findMany({
    where: {
      withdrawn: false,
      ...(params.category ? { categoryId: params.category } : {}),
      OR: [
        { name: { contains: search, mode: 'insensitive' } },
        { categoryId: { contains: search, mode: 'insensitive' } },
        { category: { name: { contains: search, mode: 'insensitive' } } },
      ],
    },
    orderBy: { sort: 'asc' },
  });
  const needle = search.toLowerCase();
  const byName = rows.filter((m) => m.name.toLowerCase().includes(needle));
  const ranked = [...byName, ...rows.filter((m) => !m.name.toLowerCase().includes(needle))];
  let start = 0;
  if (params.after !== undefined) {
    const at = ranked.findIndex((m) => m.id === params.after);
    if (at < 0) throw afterRefused(params.after);
    start = at + 1;
  }
  return { data: ranked.slice(start, start + params.limit).map(toApiMaterial), hasMore: ranked.length > start + params.limit };
}

function afterRefused(after: string) {
  return invalidParam('after', `'after' must be the id of a material you listed; '${after}' is not.`);
}

function toApiMaterial(m: { id: string; name: string; description: string; categoryId: string }): ApiEditMaterial {
  return { object: 'edit_material', id: m.id, name: m.name, description: m.description, category: m.categoryId };
}

/** A material usable in an edit: unknown or withdrawn → 404 resource_not_found. */
export async function requireUsableMaterial(id: string, param: string) {
  const material = await db().editMaterial.findUnique({ where: { id } });
  if (!material || material.withdrawn) throw notFound(`No such edit material: '${id}'.`, param);
  return material;
}
