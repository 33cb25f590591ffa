import { z } from 'zod';

/**
 * Texture recipes (discriminated by `kind`) for the procedural swatch generator, as zod schemas:
 * the catalogue is typed by them, and the `texture` JSON column of EditMaterial is parsed by
 * them on read (never cast), so a row that does not match fails loudly where it is read.
 */
const hex = z.custom<`#${string}`>((v) => typeof v === 'string' && /^#[0-9A-Fa-f]{6}$/.test(v), 'a #RRGGBB colour');

export const paintSheen = z.enum(['flat', 'matte', 'eggshell', 'satin', 'semi_gloss', 'gloss']);

const paint = z.strictObject({ kind: z.literal('paint'), color: hex, sheen: paintSheen });

const plaster = z.strictObject({
  kind: z.literal('plaster'),
  /** Average colour. */
  base: hex,
  /** Colour of the darker clouds / trowel marks. */
  shade: hex,
  style: z.enum(['limewash', 'venetian', 'tadelakt', 'stucco', 'clay']),
});

/**
 * straight: long planks in staggered rows; herringbone: rectangular blocks at 90°, laid at 45°;
 * chevron: blocks with 45° ends meeting in a V; basketweave: square blocks of parallel strips,
 * alternating direction; slats: vertical slats with a shadow gap (acoustic panels); veneer: a
 * continuous sheet without joints.
 */
const woodPattern = z.enum(['straight', 'herringbone', 'chevron', 'basketweave', 'slats', 'veneer']);

const wood = z.strictObject({
  kind: z.literal('wood'),
  /** Average colour of the wood. */
  base: hex,
  /** Colour of the dark latewood lines of the figure. */
  grain: hex,
  /** flat-sawn cathedral arches, straight (rift) lines, quarter-sawn ray flecks, or burl swirls. */
  figure: z.enum(['cathedral', 'straight', 'quarter', 'burl']),
  plank: z.strictObject({
    pattern: woodPattern,
    /** Face width of one plank, strip or slat, in cm. */
    widthCm: z.number().positive(),
    /** Length of one plank in cm (for basketweave: the square block side). */
    lengthCm: z.number().positive(),
    /** Only for slats: width of the gap between slats in cm. */
    gapCm: z.number().positive().optional(),
  }),
  /** 0..1, how strongly the figure shows (default 0.55). */
  contrast: z.number().min(0).max(1).optional(),
  /** Average growth-ring spacing in cm (default 0.35). */
  ringCm: z.number().positive().optional(),
  /** Probability that a plank carries a knot (0..1, default 0). */
  knots: z.number().min(0).max(1).optional(),
  /** Colour of the backing visible between slats (felt). */
  gap: hex.optional(),
});

const marble = z.strictObject({
  kind: z.literal('marble'),
  base: hex,
  vein: hex,
  /** Secondary vein / halo / clast colour. */
  accent: hex.optional(),
  /** Typical distance between major veins, in cm. */
  veinScale: z.number().positive(),
  /** fine: dense soft network (Carrara); bold: few dramatic veins (Calacatta); cloudy: soft drifts
   * (quartzite); breccia: angular clasts in a veined matrix; banded: layered onyx. */
  style: z.enum(['fine', 'bold', 'cloudy', 'breccia', 'banded']),
});

const stone = z.strictObject({
  kind: z.literal('stone'),
  base: hex,
  /** Colour of minerals, pits or flecks. */
  fleck: hex,
  style: z.enum(['granite', 'quartz', 'slate', 'travertine', 'limestone', 'sandstone', 'soapstone', 'basalt']),
});

/** subway: running bond, half offset; stacked: rectangles in a straight grid; checker: alternating tile / tile2; encaustic: square cement tile with a printed motif in tile2. */
const tileLayout = z.enum(['square', 'subway', 'stacked', 'herringbone', 'hex', 'penny', 'checker', 'encaustic']);

const tiles = z.strictObject({
  kind: z.literal('tiles'),
  tile: hex,
  /** Second colour: checker squares, encaustic motif or marble vein. */
  tile2: hex.optional(),
  grout: hex,
  layout: tileLayout,
  /** Short side of a rectangular tile, side of a square, flat-to-flat of a hexagon or diameter of a penny, in cm. */
  sizeCm: z.number().positive(),
  /** Length / width for rectangular layouts (subway, stacked, herringbone); default 2. */
  aspect: z.number().positive().optional(),
  groutCm: z.number().min(0),
  finish: z.enum(['glossy', 'matte', 'zellige', 'terracotta', 'cement', 'stone', 'marble']),
  /** 0..1 tile-to-tile colour variation (defaults per finish). */
  variation: z.number().min(0).max(1).optional(),
});

const concrete = z.strictObject({
  kind: z.literal('concrete'),
  base: hex,
  style: z.enum(['polished', 'raw', 'board_formed', 'microcement']),
  /** Colour of exposed aggregate (polished) — defaults to a darker base. */
  aggregate: hex.optional(),
});

const terrazzo = z.strictObject({
  kind: z.literal('terrazzo'),
  /** Matrix (binder) colour. */
  base: hex,
  chips: z.array(hex).min(1),
  /** Typical chip diameter in cm. */
  chipCm: z.number().positive(),
  /** 0..1 share of cells that hold a large chip. */
  density: z.number().min(0).max(1),
});

const brick = z.strictObject({
  kind: z.literal('brick'),
  brick: hex,
  /** Second clay colour mixed brick to brick. */
  brick2: hex,
  mortar: hex,
  bond: z.enum(['running', 'stack', 'flemish', 'herringbone']),
  finish: z.enum(['natural', 'whitewashed', 'painted', 'glazed']),
  /** Brick face in cm, default 21.5 × 6.5 (UK/EU standard). */
  lengthCm: z.number().positive().optional(),
  heightCm: z.number().positive().optional(),
});

const fabric = z.strictObject({
  kind: z.literal('fabric'),
  /** Warp / face colour. */
  base: hex,
  /** Weft colour when it differs (denim, tweed). */
  thread: hex.optional(),
  weave: z.enum(['plain', 'linen', 'twill', 'herringbone', 'basketweave', 'boucle', 'velvet', 'leather']),
  /** Thread pitch in cm (weaves) or loop / pebble size (bouclé, leather); defaults per weave. */
  threadCm: z.number().positive().optional(),
});

const metal = z.strictObject({
  kind: z.literal('metal'),
  base: hex,
  finish: z.enum(['brushed', 'polished', 'satin', 'hammered', 'patina', 'blackened']),
  /** Corrosion colour for `patina` (verdigris, rust). */
  patina: hex.optional(),
});

const glass = z.strictObject({
  kind: z.literal('glass'),
  /** Transmission tint (glass) or reflection tint (mirror). */
  tint: hex,
  style: z.enum(['clear', 'frosted', 'reeded', 'fluted', 'textured', 'mirror', 'antique_mirror']),
});

const wallpaper = z.strictObject({
  kind: z.literal('wallpaper'),
  ground: hex,
  ink: hex,
  ink2: hex.optional(),
  motif: z.enum(['stripes', 'damask', 'trellis', 'botanical', 'grasscloth', 'dots', 'deco_fan']),
  /** Pattern repeat in cm. */
  repeatCm: z.number().positive(),
});

const panel = z.strictObject({
  kind: z.literal('panel'),
  /** Paint colour of the panelling. */
  base: hex,
  style: z.enum(['fluted', 'shiplap', 'beadboard', 'wainscot', 'board_and_batten']),
  /** Distance between repeating profiles (flute, board, panel), in cm. */
  pitchCm: z.number().positive(),
});

export const materialTextureSchema = z.discriminatedUnion('kind', [paint, plaster, wood, marble, stone, tiles, concrete, terrazzo, brick, fabric, metal, glass, wallpaper, panel]);

export type PaintSheen = z.infer<typeof paintSheen>;
export type WoodPattern = z.infer<typeof woodPattern>;
export type TileLayout = z.infer<typeof tileLayout>;
export type PaintTexture = z.infer<typeof paint>;
export type PlasterTexture = z.infer<typeof plaster>;
export type WoodTexture = z.infer<typeof wood>;
export type MarbleTexture = z.infer<typeof marble>;
export type StoneTexture = z.infer<typeof stone>;
export type TilesTexture = z.infer<typeof tiles>;
export type ConcreteTexture = z.infer<typeof concrete>;
export type TerrazzoTexture = z.infer<typeof terrazzo>;
export type BrickTexture = z.infer<typeof brick>;
export type FabricTexture = z.infer<typeof fabric>;
export type MetalTexture = z.infer<typeof metal>;
export type GlassTexture = z.infer<typeof glass>;
export type WallpaperTexture = z.infer<typeof wallpaper>;
export type PanelTexture = z.infer<typeof panel>;
export type MaterialTexture = z.infer<typeof materialTextureSchema>;

/** The `texture` column of an EditMaterial row. */
export function storedTexture(value: unknown): MaterialTexture {
  return materialTextureSchema.parse(value);
}
