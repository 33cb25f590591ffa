import { z } from 'zod';
import { materialTextureSchema } from './texture-schema';

/**
 * The shape of the reference catalogue (catalog.json): styles, edit material categories and
 * edit materials with their texture recipes. Ids are stable slugs API clients store: never
 * renumber or rename one; retire a material with `withdrawn: true` instead (the API then answers
 * 404 for it, as the spec requires for withdrawn materials).
 */
const slug = z.string().regex(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/, 'a lowercase slug with underscores');
const prose = z.string().trim().min(1);

export const decorationStyleSchema = z.strictObject({
  id: slug,
  name: prose,
  description: prose,
  /** Display order, ascending. */
  sort: z.number().int(),
});

export const editMaterialCategorySchema = decorationStyleSchema;

export const editMaterialSchema = z.strictObject({
  /** `mat_<slug>`, stable forever. */
  id: z.custom<`mat_${string}`>((v) => typeof v === 'string' && /^mat_[a-z0-9]+(_[a-z0-9]+)*$/.test(v), 'mat_<slug>'),
  categoryId: slug,
  name: prose,
  description: prose,
  /** Discontinued: hidden from lists and answered with 404, kept so old ids stay reserved. */
  withdrawn: z.boolean(),
  /** The recipe engine/builtin/swatches renders (console previews, `modify` layers of edits). */
  texture: materialTextureSchema,
});

function uniqueIds(items: readonly { id: string }[], what: string, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  for (const { id } of items) {
    if (seen.has(id)) ctx.addIssue({ code: 'custom', message: `${what} ${id} appears twice` });
    seen.add(id);
  }
}

export const catalogSchema = z
  .strictObject({
    styles: z.array(decorationStyleSchema),
    categories: z.array(editMaterialCategorySchema),
    /** In category then catalogue order (the listing order); withdrawn ones included. */
    materials: z.array(editMaterialSchema),
  })
  .superRefine((catalog, ctx) => {
    uniqueIds(catalog.styles, 'style', ctx);
    uniqueIds(catalog.categories, 'category', ctx);
    uniqueIds(catalog.materials, 'material', ctx);
    const categories = new Set(catalog.categories.map((c) => c.id));
    for (const m of catalog.materials) {
      if (!categories.has(m.categoryId)) ctx.addIssue({ code: 'custom', message: `material ${m.id} names an unknown category ${m.categoryId}` });
    }
  });

export type DecorationStyle = z.infer<typeof decorationStyleSchema>;
export type EditMaterialCategory = z.infer<typeof editMaterialCategorySchema>;
export type EditMaterial = z.infer<typeof editMaterialSchema>;
export type Catalog = z.infer<typeof catalogSchema>;
