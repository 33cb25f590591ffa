import data from './catalog.json';
import { catalogSchema, type Catalog, type DecorationStyle, type EditMaterial, type EditMaterialCategory } from './catalog-schema';

/**
 * The one reader of the reference catalogue (catalog.json: styles, edit material categories,
 * edit materials and their texture recipes), validated by its schema once per process on first
 * use. The seed mirrors it into the database (listings, pagination and search run there); the
 * swatch route and the engine read it here.
 */
export type { Catalog, DecorationStyle, EditMaterial, EditMaterialCategory } from './catalog-schema';
export type { MaterialTexture } from './texture-schema';

interface LoadedCatalog extends Catalog {
  styleById: ReadonlyMap<string, DecorationStyle>;
  categoryById: ReadonlyMap<string, EditMaterialCategory>;
  materialById: ReadonlyMap<string, EditMaterial>;
}

let loaded: LoadedCatalog | undefined;

export function catalog(): LoadedCatalog {
  if (!loaded) {
    const parsed = catalogSchema.parse(data);
    loaded = {
      ...parsed,
      styleById: new Map(parsed.styles.map((s) => [s.id, s])),
      categoryById: new Map(parsed.categories.map((c) => [c.id, c])),
      materialById: new Map(parsed.materials.map((m) => [m.id, m])),
    };
  }
  return loaded;
}

export function getStyle(id: string): DecorationStyle | undefined {
  return catalog().styleById.get(id);
}

export function getEditMaterialCategory(id: string): EditMaterialCategory | undefined {
  return catalog().categoryById.get(id);
}

/** Any material, withdrawn or not (e.g. to render an old generation's swatch). */
export function getEditMaterial(id: string): EditMaterial | undefined {
  return catalog().materialById.get(id);
}

/** The material if it exists and is not withdrawn: what the API may accept or show (else 404). */
export function getActiveEditMaterial(id: string): EditMaterial | undefined {
  const m = catalog().materialById.get(id);
  return m && !m.withdrawn ? m : undefined;
}
