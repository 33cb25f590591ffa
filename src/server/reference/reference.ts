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

/** Paginated in catalogue order; withdrawn materials are never listed. */
export async function listEditMaterials(params: MaterialListParams): Promise<{ data: ApiEditMaterial[]; hasMore: boolean }> {
  if (params.category !== undefined) {
    const category = await db().editMaterialCategory.findUnique({ where: { id: params.category } });
    if (!category) throw invalidParam('category', `Unknown category '${params.category}'; list the edit material categories to see the valid ids.`);
  }
  let afterSort: number | undefined;
  if (params.after !== undefined) {
    const cursor = await db().editMaterial.findFirst({ where: { id: params.after, withdrawn: false }, select: { sort: true } });
    if (!cursor) throw invalidParam('after', `'after' must be the id of a material you listed; '${params.after}' is not.`);
    afterSort = cursor.sort;
  }
  const search = params.search?.trim();
  const rows = await db().editMaterial.findMany({
    where: {
      withdrawn: false,
      ...(params.category ? { categoryId: params.category } : {}),
      ...(afterSort !== undefined ? { sort: { gt: afterSort } } : {}),
      ...(search
        ? {
            OR: [
              { name: { contains: search, mode: 'insensitive' } },
              { categoryId: { contains: search, mode: 'insensitive' } },
              { category: { name: { contains: search, mode: 'insensitive' } } },
            ],
          }
        : {}),
    },
    orderBy: { sort: 'asc' },
    take: params.limit + 1,
  });
  return {
    data: rows.slice(0, params.limit).map((m) => ({
      object: 'edit_material',
      id: m.id,
      name: m.name,
      description: m.description,
      category: m.categoryId,
    })),
    hasMore: rows.length > params.limit,
  };
}

/** A material usable in an edit: unknown or withdrawn → 404 resource_not_found. */
export async function requireUsableMaterial(id: string, param: string) {
  const material = await db().editMaterial.findUnique({ where: { id } });
  if (!material || material.withdrawn) throw notFound(`No such edit material: '${id}'.`, param);
  return material;
}
