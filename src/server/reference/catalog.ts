/**
 * Reference data served by GET /v1/styles, /v1/edit-materials and /v1/edit-material-categories.
 *
 * Everything here is static and versioned with the code: ids are stable slugs so API clients can
 * store them. Never renumber or rename an id; retire a material with `withdrawn: true` instead
 * (the API then answers 404 for it, as the spec requires for withdrawn materials).
 *
 * Each material carries a `texture` recipe consumed by engine/builtin/swatches.ts, which renders the
 * procedural swatch used for console previews and by the image engine for `modify` layers.
 */

import type { MaterialTexture, PaintSheen } from './texture-schema';

/** `#RRGGBB`, upper or lower case. */
export type HexColor = `#${string}`;

// ---------------------------------------------------------------------------------------------
// Styles
// ---------------------------------------------------------------------------------------------

export interface DecorationStyle {
  /** Stable slug, lowercase with underscores, e.g. `mid_century_modern`. */
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** Display order, ascending. */
  readonly sort: number;
}

export const STYLES: readonly DecorationStyle[] = [
  {
    id: 'scandinavian',
    name: 'Scandinavian',
    description:
      'Light, airy rooms built on white and soft grey walls, pale oak or ash floors and simple, functional furniture on tapered legs. Wool throws, sheepskin and linen add warmth to a calm, uncluttered mood.',
    sort: 10,
  },
  {
    id: 'japandi',
    name: 'Japandi',
    description:
      'Japanese restraint meets Scandinavian comfort: low-slung furniture, natural and dark-stained wood, paper lanterns and a muted palette of clay, sand and charcoal. Calm, handcrafted and uncluttered.',
    sort: 20,
  },
  {
    id: 'mid_century_modern',
    name: 'Mid-Century Modern',
    description:
      'Clean lines and organic curves from the 1950s and 60s: walnut and teak furniture on splayed legs, moulded plywood and accents of mustard, olive and burnt orange. Optimistic, graphic and warm.',
    sort: 30,
  },
  {
    id: 'industrial',
    name: 'Industrial',
    description:
      'Warehouse-inspired spaces with exposed brick, concrete, blackened steel and visible ductwork. Worn leather seating, reclaimed timber and metal pendant lights give a tough, lived-in character.',
    sort: 40,
  },
  {
    id: 'bohemian',
    name: 'Bohemian',
    description:
      'A relaxed, collected look layering patterned rugs and kilims, rattan, macramé and plenty of plants. Terracotta, saffron and jewel tones mix freely for a free-spirited, well-travelled feel.',
    sort: 50,
  },
  {
    id: 'coastal',
    name: 'Coastal',
    description:
      'Breezy and bright with white and sand tones, washed blues and sea-glass greens. Slipcovered sofas, jute rugs, whitewashed wood and linen curtains evoke a beach house in full daylight.',
    sort: 60,
  },
  {
    id: 'farmhouse',
    name: 'Modern Farmhouse',
    description:
      'Country comfort with a clean edge: shiplap walls, wide-plank floors, apron-front sinks and sturdy wooden tables. White and cream with black accents, galvanised metal and vintage finds.',
    sort: 70,
  },
  {
    id: 'art_deco',
    name: 'Art Deco',
    description:
      'Glamorous 1920s geometry: sunbursts, fan motifs and stepped forms in lacquer, polished brass and marble. Deep emerald, navy and black set off velvet upholstery and mirrored surfaces.',
    sort: 80,
  },
  {
    id: 'minimalist',
    name: 'Minimalist',
    description:
      'Pared-back rooms where every object earns its place: monochrome palettes, flush handleless storage and a few sculptural pieces. Light, space and clean surfaces do most of the work.',
    sort: 90,
  },
  {
    id: 'mediterranean',
    name: 'Mediterranean',
    description:
      'Sun-washed plaster walls, terracotta floors, arched openings and wrought-iron details. Olive, ochre and Aegean blue accents, rustic beams and handmade tiles create a warm, relaxed mood.',
    sort: 100,
  },
  {
    id: 'wabi_sabi',
    name: 'Wabi-Sabi',
    description:
      'An appreciation of imperfection and age: limewashed or clay walls, raw linen, weathered wood and handmade ceramics in earthy, muted tones. Quiet, tactile and deliberately unpolished.',
    sort: 110,
  },
  {
    id: 'french_country',
    name: 'French Country',
    description:
      'Provençal charm with distressed painted furniture, toile and checked fabrics, stone floors and copper cookware. Soft yellows, lavender and faded blues give a gentle, rustic elegance.',
    sort: 120,
  },
  {
    id: 'hollywood_regency',
    name: 'Hollywood Regency',
    description:
      'Theatrical glamour: lacquered furniture, tufted velvet, mirrored and gilded accents and high-contrast black and white. Saturated pinks, emeralds and gold make a confident statement.',
    sort: 130,
  },
  {
    id: 'maximalist',
    name: 'Maximalist',
    description:
      'More is more: saturated colour, pattern on pattern, gallery walls and collections on display. Rich wallpapers, velvet and layered rugs combine into an exuberant, deeply personal room.',
    sort: 140,
  },
  {
    id: 'contemporary',
    name: 'Contemporary',
    description:
      'Current design with clean silhouettes, neutral backdrops and curved, sculptural furniture. Mixed materials such as honed stone, matte metal and bouclé keep it fresh and comfortable.',
    sort: 150,
  },
  {
    id: 'traditional',
    name: 'Traditional',
    description:
      'Classic European-inspired interiors with symmetry, crown mouldings and dark polished woods. Rolled-arm sofas, damask and chintz, and rich reds, greens and golds convey comfort and order.',
    sort: 160,
  },
  {
    id: 'rustic',
    name: 'Rustic',
    description:
      'Rough-hewn timber, natural stone and exposed beams bring the outdoors in. Earthy browns, wool and leather textures and the feel of a wood-burning stove make it cosy and grounded.',
    sort: 170,
  },
  {
    id: 'tropical',
    name: 'Tropical',
    description:
      'Lush and relaxed: palm and banana-leaf prints, rattan and cane furniture, teak and bamboo. Greens, warm whites and bright accents with plenty of indoor plants suggest a holiday villa.',
    sort: 180,
  },
  {
    id: 'shabby_chic',
    name: 'Shabby Chic',
    description:
      'Soft, romantic vintage with chipped white-painted furniture, faded florals, ruffled linens and pastel pinks. Worn finishes and flea-market finds feel relaxed and gentle.',
    sort: 190,
  },
  {
    id: 'transitional',
    name: 'Transitional',
    description:
      'A balance between traditional and contemporary: classic shapes with simplified detailing, warm neutrals such as greige and taupe, and a measured mix of wood, metal and soft textiles.',
    sort: 200,
  },
  {
    id: 'memphis',
    name: 'Memphis',
    description:
      '1980s postmodern playfulness: clashing primaries and pastels, squiggles, terrazzo, plastic laminate and bold geometric furniture. Irreverent, graphic and fun.',
    sort: 210,
  },
  {
    id: 'brutalist',
    name: 'Brutalist',
    description:
      'Monolithic forms and honest materials: board-formed concrete, heavy stone and chunky dark wood. A restrained earthy palette and sculptural lighting give a strong architectural presence.',
    sort: 220,
  },
  {
    id: 'moroccan',
    name: 'Moroccan',
    description:
      'Glossy zellige tiles, carved wood, pierced brass lanterns and arched niches. Deep blue, saffron and terracotta with layered rugs and floor cushions create an intimate, enveloping warmth.',
    sort: 230,
  },
  {
    id: 'english_cottage',
    name: 'English Cottage',
    description:
      'Cosy, lived-in charm: floral chintz, low beams, painted dressers and mismatched antiques. Soft greens, creams and roses with plenty of books, cushions and garden flowers.',
    sort: 240,
  },
  {
    id: 'biophilic',
    name: 'Biophilic',
    description:
      'Design centred on nature: abundant living plants, daylight, timber, stone and organic shapes. Greens and earth tones, living walls and natural fibres promote a calm, restorative feel.',
    sort: 250,
  },
  {
    id: 'neoclassical',
    name: 'Neoclassical',
    description:
      'Greek and Roman references with columns, pilasters, symmetrical layouts and refined mouldings. Pale stone, marble, soft greys and restrained gilding give a stately, elegant mood.',
    sort: 260,
  },
  {
    id: 'eclectic',
    name: 'Eclectic',
    description:
      'A curated mix of periods, cultures and styles held together by a consistent palette or repeated textures. Vintage and modern pieces sit side by side for an individual, collected feel.',
    sort: 270,
  },
  {
    id: 'victorian',
    name: 'Victorian',
    description:
      'Ornate 19th-century richness: dark carved wood, patterned wallpapers, tufted upholstery, fringing and heavy drapery. Burgundy, forest green and gold with decorative cornices and period fireplaces.',
    sort: 280,
  },
  {
    id: 'art_nouveau',
    name: 'Art Nouveau',
    description:
      'Flowing, nature-inspired lines: whiplash curves, floral motifs, stained glass and sinuous woodwork. Muted greens, golds and mauves with organic metalwork feel artistic and romantic.',
    sort: 290,
  },
  {
    id: 'bauhaus',
    name: 'Bauhaus',
    description:
      'Form follows function: primary colour accents on white, tubular steel furniture, black leather and strict geometry. Rational, modernist and uncluttered.',
    sort: 300,
  },
  {
    id: 'southwestern',
    name: 'Southwestern',
    description:
      'Desert warmth with adobe-toned plaster, terracotta floors, woven textiles and bold geometric patterns. Turquoise, rust and sand tones with rustic wood, leather and cacti.',
    sort: 310,
  },
  {
    id: 'parisian',
    name: 'Parisian',
    description:
      'Haussmann-apartment elegance: herringbone parquet, ornate mouldings, marble fireplaces and tall windows, mixed with modern art and vintage finds. Pale walls and effortless, chic accents.',
    sort: 320,
  },
];

// ---------------------------------------------------------------------------------------------
// Edit material categories
// ---------------------------------------------------------------------------------------------

export interface EditMaterialCategory {
  /** Stable slug, lowercase with underscores. */
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly sort: number;
}

export const EDIT_MATERIAL_CATEGORIES: readonly EditMaterialCategory[] = [
  {
    id: 'flooring',
    name: 'Flooring',
    description: 'Wood, parquet, concrete, terracotta and natural-fibre floor finishes.',
    sort: 10,
  },
  {
    id: 'walls',
    name: 'Wall finishes',
    description: 'Plasters, limewash, exposed and painted brick, concrete and decorative wall panelling.',
    sort: 20,
  },
  {
    id: 'paint',
    name: 'Paint',
    description: 'Solid paint colours in sheens from flat matte to high gloss, for walls, ceilings, trim and joinery.',
    sort: 30,
  },
  {
    id: 'wallpaper',
    name: 'Wallpaper',
    description: 'Patterned and natural-fibre wall coverings: stripes, damasks, botanicals, geometrics and grasscloth.',
    sort: 40,
  },
  {
    id: 'tiles',
    name: 'Tiles',
    description: 'Ceramic, porcelain, cement and terracotta tiles in common formats and layouts, grout included.',
    sort: 50,
  },
  {
    id: 'stone',
    name: 'Natural stone',
    description: 'Marbles, onyx, travertine, slate, limestone and sandstone slabs for floors, walls and furniture.',
    sort: 60,
  },
  {
    id: 'countertops',
    name: 'Countertops',
    description: 'Worktop surfaces: engineered quartz, granite, quartzite, soapstone, terrazzo, concrete and butcher block.',
    sort: 70,
  },
  {
    id: 'wood',
    name: 'Wood',
    description: 'Veneers and solid wood finishes for cabinetry, furniture, doors and panelling.',
    sort: 80,
  },
  {
    id: 'fabrics',
    name: 'Fabrics & leather',
    description: 'Upholstery and soft-furnishing textiles: linen, cotton, bouclé, velvet, wool, denim, jute and leather.',
    sort: 90,
  },
  {
    id: 'metals',
    name: 'Metals',
    description: 'Brass, steel, chrome, copper, bronze and nickel in brushed, polished, hammered and patinated finishes.',
    sort: 100,
  },
  {
    id: 'glass',
    name: 'Glass & mirror',
    description: 'Clear, tinted, frosted and textured glass, and silvered or antiqued mirror.',
    sort: 110,
  },
];

// ---------------------------------------------------------------------------------------------
// Texture recipes: zod schemas and their types in texture-schema.ts
// ---------------------------------------------------------------------------------------------

export type {
  BrickTexture,
  ConcreteTexture,
  FabricTexture,
  GlassTexture,
  MarbleTexture,
  MaterialTexture,
  MetalTexture,
  PaintSheen,
  PaintTexture,
  PanelTexture,
  PlasterTexture,
  StoneTexture,
  TerrazzoTexture,
  TileLayout,
  TilesTexture,
  WallpaperTexture,
  WoodPattern,
  WoodTexture,
} from './texture-schema';
export type MaterialTextureKind = MaterialTexture['kind'];

// ---------------------------------------------------------------------------------------------
// Edit materials
// ---------------------------------------------------------------------------------------------

export interface EditMaterial {
  /** `mat_<slug>`, stable forever. */
  readonly id: `mat_${string}`;
  readonly categoryId: string;
  readonly name: string;
  readonly description: string;
  /** Discontinued: hidden from lists and answered with 404, kept so old ids stay reserved. */
  readonly withdrawn: boolean;
  readonly texture: MaterialTexture;
}

type M = EditMaterial;

const FLOORING: readonly M[] = [
  {
    id: 'mat_oak_herringbone',
    categoryId: 'flooring',
    name: 'Natural Oak Herringbone',
    description:
      'Honey-toned European oak blocks laid in a classic herringbone at 45°, with visible cathedral grain. The signature floor of Parisian apartments and period living rooms.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#B88A58',
      grain: '#7E5530',
      figure: 'cathedral',
      plank: { pattern: 'herringbone', widthCm: 9, lengthCm: 54 },
    },
  },
  {
    id: 'mat_oak_chevron',
    categoryId: 'flooring',
    name: 'Oak Chevron Parquet',
    description:
      'Light oak strips cut at 45° so their ends meet in a continuous zigzag of V shapes. Elegant and directional, popular in hallways and contemporary living spaces.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#C39A69',
      grain: '#8E6638',
      figure: 'straight',
      plank: { pattern: 'chevron', widthCm: 10, lengthCm: 60 },
    },
  },
  {
    id: 'mat_white_oak_wide_plank',
    categoryId: 'flooring',
    name: 'White Oak Wide Plank',
    description:
      'Extra-wide, long white oak boards with a matte oiled finish and soft flat-sawn figure. Calm and light, ideal for Scandinavian, Japandi and modern farmhouse rooms.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#C9A983',
      grain: '#9C7B55',
      figure: 'cathedral',
      plank: { pattern: 'straight', widthCm: 22, lengthCm: 220 },
      contrast: 0.5,
    },
  },
  {
    id: 'mat_smoked_oak_plank',
    categoryId: 'flooring',
    name: 'Smoked Oak Plank',
    description:
      'Fumed oak boards in deep chocolate-brown with darker grain. Rich and moody, suited to industrial lofts, classic libraries and contemporary schemes.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#6E4F36',
      grain: '#3E2A1A',
      figure: 'cathedral',
      plank: { pattern: 'straight', widthCm: 19, lengthCm: 190 },
    },
  },
  {
    id: 'mat_walnut_plank',
    categoryId: 'flooring',
    name: 'American Walnut Plank',
    description:
      'Dark, warm walnut boards with chocolate and purple-brown tones and a flowing grain. A luxurious floor for mid-century and traditional interiors.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#6A4A33',
      grain: '#3B2517',
      figure: 'cathedral',
      plank: { pattern: 'straight', widthCm: 15, lengthCm: 180 },
      contrast: 0.6,
    },
  },
  {
    id: 'mat_ash_basketweave_parquet',
    categoryId: 'flooring',
    name: 'Ash Basketweave Parquet',
    description:
      'Pale ash strips assembled into square blocks that alternate direction, like a woven basket. A crisp, graphic floor for period homes and studios.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#D3BA95',
      grain: '#A6885F',
      figure: 'straight',
      plank: { pattern: 'basketweave', widthCm: 7, lengthCm: 35 },
      contrast: 0.5,
    },
  },
  {
    id: 'mat_reclaimed_pine_boards',
    categoryId: 'flooring',
    name: 'Reclaimed Pine Boards',
    description:
      'Salvaged pine floorboards with amber tones, bold growth rings and dark knots. Full of character for rustic, farmhouse and cottage rooms.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#B3814C',
      grain: '#7A4D25',
      figure: 'cathedral',
      plank: { pattern: 'straight', widthCm: 18, lengthCm: 200 },
      contrast: 0.8,
      ringCm: 0.55,
      knots: 0.45,
    },
  },
  {
    id: 'mat_whitewashed_oak_plank',
    categoryId: 'flooring',
    name: 'Whitewashed Oak Plank',
    description:
      'Oak boards finished with a white-pigmented oil that mutes the yellow tones and leaves the grain softly visible. Bright and breezy for coastal and Scandinavian homes.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#D8CCBA',
      grain: '#AE9D85',
      figure: 'cathedral',
      plank: { pattern: 'straight', widthCm: 19, lengthCm: 190 },
      contrast: 0.6,
    },
  },
  {
    id: 'mat_maple_strip',
    categoryId: 'flooring',
    name: 'Hard Maple Strip',
    description:
      'Narrow, pale maple strips with a fine, even grain and a clear satin finish. Clean and bright, as seen in studios, dance floors and minimalist homes.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#DDC096',
      grain: '#BF9E70',
      figure: 'straight',
      plank: { pattern: 'straight', widthCm: 6, lengthCm: 110 },
      contrast: 0.35,
      ringCm: 0.25,
    },
  },
  {
    id: 'mat_carbonized_bamboo_strand',
    categoryId: 'flooring',
    name: 'Carbonized Strand Bamboo',
    description:
      'Compressed strand bamboo heat-treated to a caramel brown with a dense, streaky texture. Discontinued by the supplier.',
    withdrawn: true,
    texture: {
      kind: 'wood',
      base: '#8C5C35',
      grain: '#5C3A1E',
      figure: 'straight',
      plank: { pattern: 'straight', widthCm: 13, lengthCm: 180 },
      contrast: 0.7,
      ringCm: 0.2,
    },
  },
  {
    id: 'mat_polished_concrete_floor',
    categoryId: 'flooring',
    name: 'Polished Concrete Floor',
    description:
      'Ground and sealed concrete slab in mid grey, with soft cloudy variation and a scattering of exposed aggregate. Seamless and hard-wearing for lofts and modern homes.',
    withdrawn: false,
    texture: { kind: 'concrete', base: '#9D9A94', style: 'polished', aggregate: '#6F6A63' },
  },
  {
    id: 'mat_saltillo_terracotta',
    categoryId: 'flooring',
    name: 'Saltillo Terracotta',
    description:
      'Handmade square terracotta pavers in warm orange-red, each tile a slightly different shade, with wide sandy grout joints. Classic for Mediterranean and Southwestern homes.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#B5643D',
      grout: '#C5B39A',
      layout: 'square',
      sizeCm: 30,
      groutCm: 1,
      finish: 'terracotta',
    },
  },
  {
    id: 'mat_limestone_pavers',
    categoryId: 'flooring',
    name: 'Honed Limestone Pavers',
    description:
      'Large creamy-beige limestone slabs with a honed matte face and tight joints. Understated and timeless for hallways, kitchens and orangeries.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#CFC3AA',
      grout: '#B9AD97',
      layout: 'stacked',
      sizeCm: 40,
      aspect: 1.5,
      groutCm: 0.4,
      finish: 'stone',
    },
  },
  {
    id: 'mat_natural_sisal',
    categoryId: 'flooring',
    name: 'Natural Sisal',
    description:
      'Wall-to-wall sisal carpet in a tight basketweave of pale golden fibre. Textured and natural for coastal, Scandinavian and relaxed country rooms.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#C7AF86', weave: 'basketweave', threadCm: 0.3 },
  },
];

const WALLS: readonly M[] = [
  {
    id: 'mat_limewash_chalk',
    categoryId: 'walls',
    name: 'Chalk Limewash',
    description:
      'Mineral limewash in a warm chalky white, brushed on in overlapping strokes that leave a soft, cloudy depth. Brings quiet texture to Japandi and wabi-sabi rooms.',
    withdrawn: false,
    texture: { kind: 'plaster', base: '#E4DCCE', shade: '#C9BDA9', style: 'limewash' },
  },
  {
    id: 'mat_limewash_terracotta',
    categoryId: 'walls',
    name: 'Terracotta Limewash',
    description:
      'Earthy terracotta limewash with a mottled, sun-faded look. Warm and Mediterranean, lovely in bedrooms and dining rooms.',
    withdrawn: false,
    texture: { kind: 'plaster', base: '#C08466', shade: '#9E654B', style: 'limewash' },
  },
  {
    id: 'mat_venetian_plaster_ivory',
    categoryId: 'walls',
    name: 'Ivory Venetian Plaster',
    description:
      'Burnished lime plaster in soft ivory with a marble-like depth and a gentle sheen. A polished, luxurious finish for living rooms and hallways.',
    withdrawn: false,
    texture: { kind: 'plaster', base: '#E8E0CF', shade: '#CFC2A9', style: 'venetian' },
  },
  {
    id: 'mat_venetian_plaster_charcoal',
    categoryId: 'walls',
    name: 'Charcoal Venetian Plaster',
    description:
      'Deep charcoal polished plaster with lighter burnished clouds. Dramatic and enveloping for powder rooms, studies and feature walls.',
    withdrawn: false,
    texture: { kind: 'plaster', base: '#4A4642', shade: '#2F2C29', style: 'venetian' },
  },
  {
    id: 'mat_tadelakt_sand',
    categoryId: 'walls',
    name: 'Sand Tadelakt',
    description:
      'Waterproof Moroccan lime plaster, compacted and polished with stone and soap into a smooth, softly undulating sand-coloured surface. Made for bathrooms and hammams.',
    withdrawn: false,
    texture: { kind: 'plaster', base: '#D6C1A2', shade: '#BBA27F', style: 'tadelakt' },
  },
  {
    id: 'mat_stucco_white',
    categoryId: 'walls',
    name: 'White Textured Stucco',
    description:
      'Bright white render with a coarse, bumpy trowelled texture. Typical of Mediterranean and Spanish-revival interiors.',
    withdrawn: false,
    texture: { kind: 'plaster', base: '#ECE8E0', shade: '#D4CEC2', style: 'stucco' },
  },
  {
    id: 'mat_clay_plaster_ochre',
    categoryId: 'walls',
    name: 'Ochre Clay Plaster',
    description:
      'Natural earth plaster in warm ochre with a fine sandy grain and soft mottling. Breathable and tactile for wabi-sabi, Southwestern and biophilic spaces.',
    withdrawn: false,
    texture: { kind: 'plaster', base: '#C49A62', shade: '#A57C47', style: 'clay' },
  },
  {
    id: 'mat_microcement_grey',
    categoryId: 'walls',
    name: 'Grey Microcement',
    description:
      'Thin seamless cement coating in warm mid grey, hand-trowelled with subtle cloudy marks. Used on walls, floors and showers for a continuous modern look.',
    withdrawn: false,
    texture: { kind: 'concrete', base: '#A6A29B', style: 'microcement' },
  },
  {
    id: 'mat_board_formed_concrete',
    categoryId: 'walls',
    name: 'Board-Formed Concrete',
    description:
      'Cast concrete bearing the imprint of the timber boards it was poured against: horizontal bands, wood grain and fine seams. The brutalist wall par excellence.',
    withdrawn: false,
    texture: { kind: 'concrete', base: '#9B9892', style: 'board_formed' },
  },
  {
    id: 'mat_raw_concrete_wall',
    categoryId: 'walls',
    name: 'Raw Fair-Faced Concrete',
    description:
      'Smooth-shuttered architectural concrete with pinholes and gentle cloudy tones. Industrial and minimal.',
    withdrawn: false,
    texture: { kind: 'concrete', base: '#A19E98', style: 'raw' },
  },
  {
    id: 'mat_exposed_red_brick',
    categoryId: 'walls',
    name: 'Exposed Red Brick',
    description:
      'Weathered red-brown clay bricks in a running bond with pale lime mortar, each brick a slightly different tone. The classic warehouse-loft wall.',
    withdrawn: false,
    texture: {
      kind: 'brick',
      brick: '#9E4E38',
      brick2: '#7A3B2B',
      mortar: '#BDB3A4',
      bond: 'running',
      finish: 'natural',
    },
  },
  {
    id: 'mat_london_stock_brick',
    categoryId: 'walls',
    name: 'Yellow London Stock Brick',
    description:
      'Soft yellow-buff stock bricks with smoky darker patches, laid in Flemish bond. Typical of Victorian terraces and converted warehouses.',
    withdrawn: false,
    texture: {
      kind: 'brick',
      brick: '#C2A173',
      brick2: '#8F7A5E',
      mortar: '#CFC6B6',
      bond: 'flemish',
      finish: 'natural',
    },
  },
  {
    id: 'mat_whitewashed_brick',
    categoryId: 'walls',
    name: 'Whitewashed Brick',
    description:
      'Red brick brushed with a thin lime wash so the clay colour still shows through in places. Relaxed and bright for farmhouse and coastal rooms.',
    withdrawn: false,
    texture: {
      kind: 'brick',
      brick: '#A5604A',
      brick2: '#8A4C3A',
      mortar: '#D8D2C8',
      bond: 'running',
      finish: 'whitewashed',
    },
  },
  {
    id: 'mat_painted_brick_white',
    categoryId: 'walls',
    name: 'White Painted Brick',
    description:
      'Brick wall painted solid white so that only the relief of bricks and mortar joints remains. Clean and textural for Scandinavian and industrial schemes.',
    withdrawn: false,
    texture: {
      kind: 'brick',
      brick: '#ECE9E2',
      brick2: '#E2DED6',
      mortar: '#DCD7CE',
      bond: 'running',
      finish: 'painted',
    },
  },
  {
    id: 'mat_fluted_panel_white',
    categoryId: 'walls',
    name: 'White Fluted Panelling',
    description:
      'Vertical half-round flutes in a soft white paint finish, catching light and shadow. A sculptural feature for bedheads, kitchen islands and reception walls.',
    withdrawn: false,
    texture: { kind: 'panel', base: '#EAE7E1', style: 'fluted', pitchCm: 3 },
  },
  {
    id: 'mat_shiplap_white',
    categoryId: 'walls',
    name: 'White Shiplap',
    description:
      'Horizontal painted boards with a narrow shadow gap between them. The calm, relaxed backdrop of farmhouse and coastal interiors.',
    withdrawn: false,
    texture: { kind: 'panel', base: '#EFEDE8', style: 'shiplap', pitchCm: 15 },
  },
  {
    id: 'mat_beadboard_sage',
    categoryId: 'walls',
    name: 'Sage Beadboard',
    description:
      'Narrow vertical tongue-and-groove boards with a small bead detail, painted soft sage green. Cottage charm for bathrooms, kitchens and hallways.',
    withdrawn: false,
    texture: { kind: 'panel', base: '#A7B29A', style: 'beadboard', pitchCm: 10 },
  },
  {
    id: 'mat_wainscot_navy',
    categoryId: 'walls',
    name: 'Navy Raised-Panel Wainscoting',
    description:
      'Traditional raised and fielded panels framed by stiles and rails, painted deep navy. Adds architecture and formality to dining rooms and studies.',
    withdrawn: false,
    texture: { kind: 'panel', base: '#2F3A50', style: 'wainscot', pitchCm: 50 },
  },
  {
    id: 'mat_board_and_batten_greige',
    categoryId: 'walls',
    name: 'Greige Board and Batten',
    description:
      'Flat boards with raised vertical battens at regular intervals, painted a warm greige. A simple, crafted wall treatment for entries and bedrooms.',
    withdrawn: false,
    texture: { kind: 'panel', base: '#C6BCAD', style: 'board_and_batten', pitchCm: 40 },
  },
  {
    id: 'mat_oak_slat_acoustic_panel',
    categoryId: 'walls',
    name: 'Oak Slat Acoustic Panel',
    description:
      'Vertical oak veneer slats mounted on black acoustic felt with dark shadow gaps. Warm, rhythmic and sound-absorbing for living rooms and home offices.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#B68D5E',
      grain: '#8A633B',
      figure: 'straight',
      plank: { pattern: 'slats', widthCm: 2.7, lengthCm: 240, gapCm: 1.3 },
      gap: '#1E1D1B',
      contrast: 0.45,
    },
  },
];

function paint(slug: string, name: string, color: HexColor, sheen: PaintSheen, description: string): M {
  return { id: `mat_paint_${slug}`, categoryId: 'paint', name, description, withdrawn: false, texture: { kind: 'paint', color, sheen } };
}

const PAINT: readonly M[] = [
  paint('chalk_white', 'Chalk White', '#F0ECE3', 'matte', 'A soft, warm white with a hint of cream that never looks cold. The default for ceilings, gallery walls and Scandinavian rooms.'),
  paint('warm_greige', 'Warm Greige', '#BDB3A4', 'eggshell', 'A balanced grey-beige that shifts gently with the light. A versatile neutral for transitional living rooms and bedrooms.'),
  paint('sage_green', 'Sage Green', '#A2AD93', 'matte', 'A muted grey-green inspired by dried herbs. Calm and natural for kitchens, bedrooms and cottage interiors.'),
  paint('midnight_navy', 'Midnight Navy', '#27314A', 'eggshell', 'A deep inky blue that reads almost black in low light. Dramatic on feature walls, studies and joinery.'),
  paint('terracotta_clay', 'Terracotta Clay', '#B8684A', 'matte', 'An earthy burnt orange reminiscent of fired clay. Warm and sunny for Mediterranean and bohemian rooms.'),
  paint('charcoal', 'Charcoal', '#3E3F41', 'matte', 'A soft near-black grey with a velvety depth. Moody and sophisticated for snugs, cinemas and accent walls.'),
  paint('dusty_rose', 'Dusty Rose', '#CDA49E', 'eggshell', 'A faded, plaster-like pink with grey undertones. Gentle and grown-up for bedrooms and dining rooms.'),
  paint('ochre', 'Ochre', '#C8953F', 'matte', 'A golden yellow earth pigment, rich but not brash. Adds warmth to hallways and mid-century schemes.'),
  paint('forest_green', 'Forest Green', '#2F4A3B', 'satin', 'A deep, traditional green with a soft satin sheen. Classic for libraries, kitchen cabinetry and panelled rooms.'),
  paint('pale_sky_blue', 'Pale Sky Blue', '#C7D7E1', 'eggshell', 'A light, airy blue with a touch of grey. Fresh and restful for bathrooms, nurseries and coastal bedrooms.'),
  paint('butter_yellow', 'Butter Yellow', '#EED89A', 'satin', 'A creamy pale yellow that glows in daylight. Cheerful in kitchens and breakfast rooms.'),
  paint('lacquer_black', 'Lacquer Black', '#1C1C1E', 'gloss', 'A high-gloss black for doors, trim and furniture, with a deep reflective finish. Hollywood Regency and Art Deco staple.'),
  paint('oxblood', 'Oxblood', '#5A2426', 'satin', 'A deep brownish red with a subtle sheen. Rich and enveloping for dining rooms and Victorian-inspired spaces.'),
];

const WALLPAPER: readonly M[] = [
  {
    id: 'mat_grasscloth_natural',
    categoryId: 'wallpaper',
    name: 'Natural Grasscloth',
    description:
      'Hand-woven grass fibres on a paper backing in golden straw tones, with irregular horizontal slubs. Adds organic warmth to living rooms and bedrooms.',
    withdrawn: false,
    texture: { kind: 'wallpaper', ground: '#C6B28D', ink: '#9C8661', motif: 'grasscloth', repeatCm: 90 },
  },
  {
    id: 'mat_grasscloth_indigo',
    categoryId: 'wallpaper',
    name: 'Indigo Grasscloth',
    description:
      'Dyed grasscloth in deep indigo with lighter fibre streaks. Rich and textural for studies, dining rooms and coastal schemes.',
    withdrawn: false,
    texture: { kind: 'wallpaper', ground: '#384968', ink: '#243049', motif: 'grasscloth', repeatCm: 90 },
  },
  {
    id: 'mat_damask_sage',
    categoryId: 'wallpaper',
    name: 'Sage Tone-on-Tone Damask',
    description:
      'A large symmetrical damask ornament printed in a slightly deeper sage on a sage ground. Traditional and quietly elegant.',
    withdrawn: false,
    texture: { kind: 'wallpaper', ground: '#B6C0A8', ink: '#94A187', motif: 'damask', repeatCm: 53 },
  },
  {
    id: 'mat_flocked_damask_burgundy',
    categoryId: 'wallpaper',
    name: 'Burgundy Flocked Damask',
    description:
      'Velvety flocked damask in deep burgundy on a wine-red ground. Discontinued by the manufacturer.',
    withdrawn: true,
    texture: { kind: 'wallpaper', ground: '#5E1F25', ink: '#3F1317', motif: 'damask', repeatCm: 53 },
  },
  {
    id: 'mat_regency_stripe',
    categoryId: 'wallpaper',
    name: 'Regency Stripe',
    description:
      'Cream ground with wide dusty-blue stripes edged by fine gold pinstripes. Stately and classic for hallways and dining rooms.',
    withdrawn: false,
    texture: { kind: 'wallpaper', ground: '#EDE6D5', ink: '#8CA1B3', ink2: '#C3AB72', motif: 'stripes', repeatCm: 20 },
  },
  {
    id: 'mat_botanical_palm_leaf',
    categoryId: 'wallpaper',
    name: 'Botanical Palm Leaf',
    description:
      'Scattered leaves in two greens on a warm white ground. A tropical, fresh statement for bathrooms, bedrooms and snugs.',
    withdrawn: false,
    texture: { kind: 'wallpaper', ground: '#F0ECE2', ink: '#3E6A4A', ink2: '#6F9A69', motif: 'botanical', repeatCm: 64 },
  },
  {
    id: 'mat_art_deco_fan_gold',
    categoryId: 'wallpaper',
    name: 'Art Deco Fan',
    description:
      'Overlapping scalloped fans outlined in metallic gold on a deep teal-black ground. Glamorous and geometric for powder rooms and bars.',
    withdrawn: false,
    texture: { kind: 'wallpaper', ground: '#1E2B2A', ink: '#C3A258', motif: 'deco_fan', repeatCm: 24 },
  },
  {
    id: 'mat_ogee_trellis',
    categoryId: 'wallpaper',
    name: 'Ogee Trellis',
    description:
      'A fine interlocking ogee lattice in soft teal on off-white. Light, ordered pattern for bedrooms and hallways.',
    withdrawn: false,
    texture: { kind: 'wallpaper', ground: '#F1EDE5', ink: '#6E8E89', motif: 'trellis', repeatCm: 25 },
  },
  {
    id: 'mat_polka_dot_blush',
    categoryId: 'wallpaper',
    name: 'Blush Polka Dot',
    description:
      'Small terracotta-pink dots in a half-drop repeat on a blush ground. Playful and soft for nurseries and dressing rooms.',
    withdrawn: false,
    texture: { kind: 'wallpaper', ground: '#F2E2DA', ink: '#D49E90', motif: 'dots', repeatCm: 10 },
  },
];

const TILES: readonly M[] = [
  {
    id: 'mat_subway_tile_white_gloss',
    categoryId: 'tiles',
    name: 'White Gloss Subway Tile',
    description:
      'Classic 7.5 × 15 cm glossy white ceramic tiles in a half-offset brick bond with light grey grout. The timeless kitchen and bathroom wall.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#F1F0EC',
      grout: '#C9C5BE',
      layout: 'subway',
      sizeCm: 7.5,
      aspect: 2,
      groutCm: 0.25,
      finish: 'glossy',
    },
  },
  {
    id: 'mat_zellige_emerald',
    categoryId: 'tiles',
    name: 'Emerald Zellige',
    description:
      'Handmade Moroccan glazed terracotta squares in deep emerald, each tile uneven with pooled glaze and shifting tone. Jewel-like for splashbacks and showers.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#1F6A56',
      grout: '#CFC8BB',
      layout: 'square',
      sizeCm: 10,
      groutCm: 0.2,
      finish: 'zellige',
    },
  },
  {
    id: 'mat_zellige_white',
    categoryId: 'tiles',
    name: 'White Zellige',
    description:
      'Hand-cut white zellige with a glossy, undulating glaze and subtle tone shifts from tile to tile. Soft, luminous texture for kitchens and bathrooms.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#ECE6DA',
      grout: '#D8D1C4',
      layout: 'square',
      sizeCm: 10,
      groutCm: 0.2,
      finish: 'zellige',
      variation: 0.06,
    },
  },
  {
    id: 'mat_hex_porcelain_white',
    categoryId: 'tiles',
    name: 'Matte White Hexagon',
    description:
      'Matte white porcelain hexagons, 20 cm across, with mid-grey grout. Graphic yet calm for bathroom floors and walls.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#E7E5E0',
      grout: '#A9A6A0',
      layout: 'hex',
      sizeCm: 20,
      groutCm: 0.3,
      finish: 'matte',
    },
  },
  {
    id: 'mat_black_white_checkerboard',
    categoryId: 'tiles',
    name: 'Black and White Checkerboard',
    description:
      'Alternating black and white 30 cm square tiles with a subtle sheen. A bold classic for entrance halls, kitchens and bistro-style bathrooms.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#EEECE6',
      tile2: '#1F1F1F',
      grout: '#8E8C87',
      layout: 'checker',
      sizeCm: 30,
      groutCm: 0.25,
      finish: 'glossy',
    },
  },
  {
    id: 'mat_encaustic_cement_blue',
    categoryId: 'tiles',
    name: 'Blue Encaustic Cement Tile',
    description:
      'Matte cement tiles with an inlaid blue geometric motif on an off-white ground, forming a continuous pattern across the floor. Mediterranean and Victorian favourite.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#EAE3D5',
      tile2: '#2E4E72',
      grout: '#D3CCBF',
      layout: 'encaustic',
      sizeCm: 20,
      groutCm: 0.15,
      finish: 'cement',
    },
  },
  {
    id: 'mat_penny_round_white',
    categoryId: 'tiles',
    name: 'White Penny Round Mosaic',
    description:
      'Small 2 cm round glossy porcelain tiles in a honeycomb arrangement with pale grout. Vintage charm for shower floors and bathroom walls.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#F0EFEB',
      grout: '#C8C4BC',
      layout: 'penny',
      sizeCm: 2,
      groutCm: 0.3,
      finish: 'glossy',
    },
  },
  {
    id: 'mat_sage_stacked_finger_tile',
    categoryId: 'tiles',
    name: 'Sage Stacked Finger Tile',
    description:
      'Slim 5 × 20 cm glazed tiles in soft sage, stacked in a straight grid for a contemporary, linear look. Made for splashbacks and shower niches.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#9CAF98',
      grout: '#D9D6CE',
      layout: 'stacked',
      sizeCm: 5,
      aspect: 4,
      groutCm: 0.2,
      finish: 'glossy',
    },
  },
  {
    id: 'mat_carrara_herringbone_mosaic',
    categoryId: 'tiles',
    name: 'Carrara Herringbone Mosaic',
    description:
      'Small honed Carrara marble strips in a herringbone mosaic, white with soft grey veining. Refined for bathroom floors and feature walls.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#E6E4DF',
      tile2: '#9A9B9C',
      grout: '#D4D1CB',
      layout: 'herringbone',
      sizeCm: 2.5,
      aspect: 4,
      groutCm: 0.15,
      finish: 'marble',
    },
  },
  {
    id: 'mat_terracotta_hex_tile',
    categoryId: 'tiles',
    name: 'Terracotta Hexagon',
    description:
      'Unglazed handmade terracotta hexagons in warm, varied reds and oranges. Rustic and sunny for kitchens, terraces and Provençal rooms.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#B4603C',
      grout: '#C4B49D',
      layout: 'hex',
      sizeCm: 20,
      groutCm: 0.8,
      finish: 'terracotta',
    },
  },
  {
    id: 'mat_cobalt_glazed_square',
    categoryId: 'tiles',
    name: 'Cobalt Glazed Square',
    description:
      'Glossy 10 cm squares in saturated cobalt blue with white grout. A vivid accent for kitchens, pools and Mediterranean bathrooms.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#234F97',
      grout: '#E3DFD7',
      layout: 'square',
      sizeCm: 10,
      groutCm: 0.25,
      finish: 'glossy',
      variation: 0.08,
    },
  },
  {
    id: 'mat_large_format_porcelain_grey',
    categoryId: 'tiles',
    name: 'Large-Format Grey Porcelain',
    description:
      'Large 60 × 60 cm porcelain tiles with a concrete-like matte face and minimal joints. Seamless and modern for open-plan floors.',
    withdrawn: false,
    texture: {
      kind: 'tiles',
      tile: '#8F8D88',
      grout: '#7D7B76',
      layout: 'square',
      sizeCm: 60,
      groutCm: 0.25,
      finish: 'cement',
    },
  },
];

const STONE: readonly M[] = [
  {
    id: 'mat_carrara_marble',
    categoryId: 'stone',
    name: 'Carrara Marble',
    description:
      'Italian white-grey marble with a dense network of soft, feathery grey veins. The most familiar marble for bathrooms, tables and fireplaces.',
    withdrawn: false,
    texture: { kind: 'marble', base: '#E4E3DF', vein: '#8E9195', veinScale: 25, style: 'fine' },
  },
  {
    id: 'mat_calacatta_gold_marble',
    categoryId: 'stone',
    name: 'Calacatta Gold Marble',
    description:
      'Bright white marble with bold, dramatic grey veins warmed by golden halos. A statement stone for kitchen islands and luxury bathrooms.',
    withdrawn: false,
    texture: { kind: 'marble', base: '#EFECE6', vein: '#6F6A62', accent: '#C2A573', veinScale: 55, style: 'bold' },
  },
  {
    id: 'mat_statuario_marble',
    categoryId: 'stone',
    name: 'Statuario Marble',
    description:
      'Very white marble with striking, sharp charcoal veins set far apart. High-contrast and sculptural for feature walls and vanities.',
    withdrawn: false,
    texture: { kind: 'marble', base: '#F1F1EF', vein: '#55575B', accent: '#A9AAAD', veinScale: 45, style: 'bold' },
  },
  {
    id: 'mat_nero_marquina_marble',
    categoryId: 'stone',
    name: 'Nero Marquina Marble',
    description:
      'Deep black Spanish marble crossed by crisp white veins. Dramatic for Art Deco bathrooms, fireplaces and side tables.',
    withdrawn: false,
    texture: { kind: 'marble', base: '#1D1D1F', vein: '#DEDCD6', veinScale: 30, style: 'fine' },
  },
  {
    id: 'mat_verde_guatemala_marble',
    categoryId: 'stone',
    name: 'Verde Guatemala Marble',
    description:
      'Dark forest-green serpentine marble broken into angular fragments by pale green and white veins. Rich and opulent for tabletops and fireplaces.',
    withdrawn: false,
    texture: { kind: 'marble', base: '#1F3B2F', vein: '#C8DCCD', accent: '#4D7A61', veinScale: 14, style: 'breccia' },
  },
  {
    id: 'mat_rosso_levanto_marble',
    categoryId: 'stone',
    name: 'Rosso Levanto Marble',
    description:
      'Wine-red breccia marble with green-grey fragments and white veins. A vintage, characterful stone for bars and fireplaces.',
    withdrawn: false,
    texture: { kind: 'marble', base: '#6B2C2A', vein: '#D9CFC4', accent: '#4E5A50', veinScale: 14, style: 'breccia' },
  },
  {
    id: 'mat_honey_onyx',
    categoryId: 'stone',
    name: 'Honey Onyx',
    description:
      'Translucent amber onyx with flowing bands of honey, cream and caramel. Glows when backlit; used for bars, vanities and feature walls.',
    withdrawn: false,
    texture: { kind: 'marble', base: '#D6A15B', vein: '#F0D7A3', accent: '#A4672E', veinScale: 8, style: 'banded' },
  },
  {
    id: 'mat_travertine_classic',
    categoryId: 'stone',
    name: 'Classic Travertine',
    description:
      'Warm beige limestone with horizontal banding and characteristic small elongated pores. Mediterranean floors, walls and coffee tables.',
    withdrawn: false,
    texture: { kind: 'stone', base: '#D5C1A1', fleck: '#A38966', style: 'travertine' },
  },
  {
    id: 'mat_slate_charcoal',
    categoryId: 'stone',
    name: 'Charcoal Slate',
    description:
      'Dark grey riven slate with a layered, cleft surface and faint rusty tones. Rugged and practical for floors, fireplaces and feature walls.',
    withdrawn: false,
    texture: { kind: 'stone', base: '#3D4044', fleck: '#5C544A', style: 'slate' },
  },
  {
    id: 'mat_limestone_beige',
    categoryId: 'stone',
    name: 'Beige Limestone',
    description:
      'Soft creamy limestone with gentle mottling and tiny fossil flecks. Quiet, warm and classic for floors and fire surrounds.',
    withdrawn: false,
    texture: { kind: 'stone', base: '#D5CAB4', fleck: '#B3A487', style: 'limestone' },
  },
  {
    id: 'mat_sandstone_buff',
    categoryId: 'stone',
    name: 'Buff Sandstone',
    description:
      'Granular golden-buff sandstone with gentle sedimentary bands. Natural and warm for walls, hearths and rustic floors.',
    withdrawn: false,
    texture: { kind: 'stone', base: '#C7A47A', fleck: '#A07C53', style: 'sandstone' },
  },
  {
    id: 'mat_basalt_honed',
    categoryId: 'stone',
    name: 'Honed Basalt',
    description:
      'Fine-grained volcanic stone in charcoal grey with a honed matte face and tiny pores. Minimal and robust for floors and bathroom walls.',
    withdrawn: false,
    texture: { kind: 'stone', base: '#3A3B3C', fleck: '#242526', style: 'basalt' },
  },
];

const COUNTERTOPS: readonly M[] = [
  {
    id: 'mat_quartz_white_speckle',
    categoryId: 'countertops',
    name: 'White Speckled Quartz',
    description:
      'Engineered quartz in bright white with a fine grey speckle. Uniform, stain-resistant and practical for family kitchens.',
    withdrawn: false,
    texture: { kind: 'stone', base: '#ECEBE7', fleck: '#9C9A96', style: 'quartz' },
  },
  {
    id: 'mat_quartz_calacatta_look',
    categoryId: 'countertops',
    name: 'Calacatta-Look Quartz',
    description:
      'Engineered quartz with a white ground and soft, wide grey veining that imitates Calacatta marble. The look of marble with the durability of quartz.',
    withdrawn: false,
    texture: { kind: 'marble', base: '#F2F0EC', vein: '#8B8984', veinScale: 60, style: 'bold' },
  },
  {
    id: 'mat_taj_mahal_quartzite',
    categoryId: 'countertops',
    name: 'Taj Mahal Quartzite',
    description:
      'Creamy natural quartzite with soft, drifting taupe and gold veining. Warm and hard-wearing for kitchens and vanities.',
    withdrawn: false,
    texture: { kind: 'marble', base: '#E6DBC9', vein: '#BFA985', accent: '#D3C2A4', veinScale: 50, style: 'cloudy' },
  },
  {
    id: 'mat_absolute_black_granite',
    categoryId: 'countertops',
    name: 'Absolute Black Granite',
    description:
      'Dense, almost uniform black granite with a faint crystalline glint when polished. Timeless for kitchens and bars.',
    withdrawn: false,
    texture: { kind: 'stone', base: '#232325', fleck: '#3C3C40', style: 'granite' },
  },
  {
    id: 'mat_kashmir_white_granite',
    categoryId: 'countertops',
    name: 'Kashmir White Granite',
    description:
      'Light grey-white granite flecked with dark mica and small burgundy garnets. A classic speckled worktop for traditional kitchens.',
    withdrawn: false,
    texture: { kind: 'stone', base: '#D6D0C6', fleck: '#5D4E49', style: 'granite' },
  },
  {
    id: 'mat_soapstone_grey',
    categoryId: 'countertops',
    name: 'Soapstone',
    description:
      'Soft, matte charcoal-green soapstone with faint pale veins that darkens with oiling. Farmhouse and laboratory-style kitchens.',
    withdrawn: false,
    texture: { kind: 'stone', base: '#4B514E', fleck: '#8A918C', style: 'soapstone' },
  },
  {
    id: 'mat_oak_butcher_block',
    categoryId: 'countertops',
    name: 'Oak Butcher Block',
    description:
      'Worktop of narrow oiled oak staves glued edge to edge with staggered finger joints. Warm and practical for islands and farmhouse kitchens.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#C0925F',
      grain: '#8C6237',
      figure: 'straight',
      plank: { pattern: 'straight', widthCm: 4, lengthCm: 60 },
      contrast: 0.6,
    },
  },
  {
    id: 'mat_terrazzo_classic_white',
    categoryId: 'countertops',
    name: 'Classic White Terrazzo',
    description:
      'Off-white cement matrix scattered with grey, cream and charcoal marble chips, ground and polished. Timeless and durable for counters and floors.',
    withdrawn: false,
    texture: {
      kind: 'terrazzo',
      base: '#E7E3DA',
      chips: ['#8C8A86', '#C6C0B3', '#4D4B48', '#D8D0C0'],
      chipCm: 1.2,
      density: 0.55,
    },
  },
  {
    id: 'mat_terrazzo_memphis_pink',
    categoryId: 'countertops',
    name: 'Pink Memphis Terrazzo',
    description:
      'Blush pink terrazzo with large, playful chips of red, blue, mustard and white. A joyful statement for cafés, kitchens and bathrooms.',
    withdrawn: false,
    texture: {
      kind: 'terrazzo',
      base: '#EFD8CF',
      chips: ['#DE5E48', '#2F6A8D', '#EDBE4C', '#FAF7F2'],
      chipCm: 2.2,
      density: 0.4,
    },
  },
  {
    id: 'mat_concrete_countertop',
    categoryId: 'countertops',
    name: 'Cast Concrete Worktop',
    description:
      'Pale grey cast concrete sealed to a soft sheen, with cloudy variation and a few pinholes. Industrial and minimal.',
    withdrawn: false,
    texture: { kind: 'concrete', base: '#B2AEA7', style: 'polished', aggregate: '#8A857E' },
  },
];

const WOOD: readonly M[] = [
  {
    id: 'mat_walnut_veneer',
    categoryId: 'wood',
    name: 'Walnut Crown Veneer',
    description:
      'Crown-cut American walnut veneer with flowing cathedral figure in chocolate browns. For cabinetry, wall panelling and mid-century furniture.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#5F4231',
      grain: '#37241A',
      figure: 'cathedral',
      plank: { pattern: 'veneer', widthCm: 60, lengthCm: 240 },
      contrast: 0.65,
      ringCm: 0.5,
    },
  },
  {
    id: 'mat_rift_oak_veneer',
    categoryId: 'wood',
    name: 'Rift-Cut Oak Veneer',
    description:
      'Oak veneer cut across the growth rings for tight, straight, linear grain. Crisp and architectural for kitchens and joinery.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#C29F72',
      grain: '#957449',
      figure: 'straight',
      plank: { pattern: 'veneer', widthCm: 60, lengthCm: 240 },
      contrast: 0.55,
      ringCm: 0.3,
    },
  },
  {
    id: 'mat_quarter_sawn_oak',
    categoryId: 'wood',
    name: 'Quarter-Sawn Oak',
    description:
      'Oak cut radially to reveal straight grain crossed by shimmering ray flecks. The Arts and Crafts furniture wood.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#B8905E',
      grain: '#876236',
      figure: 'quarter',
      plank: { pattern: 'veneer', widthCm: 60, lengthCm: 240 },
      contrast: 0.5,
      ringCm: 0.3,
    },
  },
  {
    id: 'mat_teak',
    categoryId: 'wood',
    name: 'Teak',
    description:
      'Golden-brown teak with straight, slightly wavy grain and an oily lustre. Mid-century sideboards, boat decks and outdoor furniture.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#9E6E3D',
      grain: '#6A4520',
      figure: 'straight',
      plank: { pattern: 'veneer', widthCm: 60, lengthCm: 240 },
      contrast: 0.6,
      ringCm: 0.45,
    },
  },
  {
    id: 'mat_cherry',
    categoryId: 'wood',
    name: 'American Cherry',
    description:
      'Reddish-brown cherry with a fine, satiny grain and soft cathedral figure that deepens with age. Traditional and Shaker furniture and cabinetry.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#9A5736',
      grain: '#6B3621',
      figure: 'cathedral',
      plank: { pattern: 'veneer', widthCm: 60, lengthCm: 240 },
      contrast: 0.45,
      ringCm: 0.4,
    },
  },
  {
    id: 'mat_ebonized_oak',
    categoryId: 'wood',
    name: 'Ebonised Oak',
    description:
      'Oak stained almost black so only the texture of the grain remains visible. Sleek and dramatic for Japandi and contemporary joinery.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#2C2723',
      grain: '#161311',
      figure: 'straight',
      plank: { pattern: 'veneer', widthCm: 60, lengthCm: 240 },
      contrast: 0.7,
    },
  },
  {
    id: 'mat_birch_plywood',
    categoryId: 'wood',
    name: 'Birch Plywood',
    description:
      'Pale, creamy birch face veneer with a wide, gentle figure. Honest and affordable for modern shelving, cabinetry and wall linings.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#DEC7A2',
      grain: '#C0A47B',
      figure: 'cathedral',
      plank: { pattern: 'veneer', widthCm: 60, lengthCm: 240 },
      contrast: 0.4,
      ringCm: 0.7,
    },
  },
  {
    id: 'mat_bleached_ash',
    categoryId: 'wood',
    name: 'Bleached Ash',
    description:
      'Ash lightened to a soft, almost greige blond, with pronounced open grain. Airy and Scandinavian for furniture and kitchen fronts.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#D9C9AE',
      grain: '#B09D7F',
      figure: 'cathedral',
      plank: { pattern: 'veneer', widthCm: 60, lengthCm: 240 },
      contrast: 0.6,
      ringCm: 0.45,
    },
  },
  {
    id: 'mat_walnut_burl',
    categoryId: 'wood',
    name: 'Walnut Burl',
    description:
      'Swirling burr walnut veneer full of tiny dark eyes and marbled figure. Luxurious for Art Deco cabinets, dashboards and accent tables.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#7A5438',
      grain: '#3E2618',
      figure: 'burl',
      plank: { pattern: 'veneer', widthCm: 60, lengthCm: 240 },
      contrast: 0.7,
    },
  },
  {
    id: 'mat_zebrano',
    categoryId: 'wood',
    name: 'Zebrano',
    description:
      'Exotic veneer with bold, straight dark-brown stripes on a pale golden ground. A graphic 1970s and Art Deco classic.',
    withdrawn: false,
    texture: {
      kind: 'wood',
      base: '#BC9C6C',
      grain: '#4E3522',
      figure: 'straight',
      plank: { pattern: 'veneer', widthCm: 60, lengthCm: 240 },
      contrast: 1,
      ringCm: 0.9,
    },
  },
];

const FABRICS: readonly M[] = [
  {
    id: 'mat_linen_natural',
    categoryId: 'fabrics',
    name: 'Natural Linen',
    description:
      'Undyed flax linen in warm oatmeal with the slubs and irregular threads of a relaxed weave. Curtains, slipcovers and bedding.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#CCBFA8', weave: 'linen' },
  },
  {
    id: 'mat_linen_white',
    categoryId: 'fabrics',
    name: 'White Washed Linen',
    description:
      'Soft stone-washed linen in a warm white, light and slightly rumpled. Sheer curtains, bedding and summer upholstery.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#EAE5DA', weave: 'linen' },
  },
  {
    id: 'mat_cotton_canvas_ecru',
    categoryId: 'fabrics',
    name: 'Ecru Cotton Canvas',
    description:
      'Tightly woven heavyweight cotton in unbleached ecru. Durable and casual for slipcovers, cushions and director chairs.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#E1D6C1', weave: 'plain', threadCm: 0.09 },
  },
  {
    id: 'mat_boucle_ivory',
    categoryId: 'fabrics',
    name: 'Ivory Bouclé',
    description:
      'Looped-yarn bouclé in creamy ivory with a soft, nubby texture. The fabric of curvy contemporary sofas and accent chairs.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#EAE3D4', weave: 'boucle' },
  },
  {
    id: 'mat_boucle_charcoal',
    categoryId: 'fabrics',
    name: 'Charcoal Bouclé',
    description:
      'Dense charcoal bouclé with a tactile looped surface. Cosy and understated for armchairs and ottomans.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#55514C', weave: 'boucle' },
  },
  {
    id: 'mat_velvet_emerald',
    categoryId: 'fabrics',
    name: 'Emerald Velvet',
    description:
      'Deep green cotton velvet with a soft pile that shimmers where it catches the light. Art Deco sofas, headboards and curtains.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#1F5B47', weave: 'velvet' },
  },
  {
    id: 'mat_velvet_rust',
    categoryId: 'fabrics',
    name: 'Rust Velvet',
    description:
      'Warm burnt-orange velvet with a rich, crushed-pile sheen. A 1970s-inspired accent for armchairs and cushions.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#A3522E', weave: 'velvet' },
  },
  {
    id: 'mat_velvet_dusty_pink',
    categoryId: 'fabrics',
    name: 'Dusty Pink Velvet',
    description:
      'Muted blush velvet with a soft lustre. Romantic and modern for dining chairs, beds and sofas.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#C8918A', weave: 'velvet' },
  },
  {
    id: 'mat_wool_herringbone_tweed',
    categoryId: 'fabrics',
    name: 'Grey Herringbone Tweed',
    description:
      'Wool tweed woven in a herringbone of charcoal and light grey yarns. Tailored warmth for armchairs, cushions and throws.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#5F5B56', thread: '#A8A298', weave: 'herringbone', threadCm: 0.14 },
  },
  {
    id: 'mat_denim_indigo',
    categoryId: 'fabrics',
    name: 'Indigo Denim',
    description:
      'Cotton twill with indigo warp and white weft, giving the familiar diagonal denim texture. Casual upholstery, cushions and beanbags.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#2D3F64', thread: '#C9CBCF', weave: 'twill', threadCm: 0.09 },
  },
  {
    id: 'mat_jute_basketweave',
    categoryId: 'fabrics',
    name: 'Jute Basketweave',
    description:
      'Coarse golden-brown jute in a chunky basketweave. Natural texture for rugs, baskets and poufs.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#B4976A', weave: 'basketweave', threadCm: 0.45 },
  },
  {
    id: 'mat_leather_cognac',
    categoryId: 'fabrics',
    name: 'Cognac Leather',
    description:
      'Aniline leather in warm cognac brown with a fine pebbled grain and natural tonal variation. Mid-century lounge chairs and club sofas.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#985A30', weave: 'leather' },
  },
  {
    id: 'mat_leather_black',
    categoryId: 'fabrics',
    name: 'Black Leather',
    description:
      'Full-grain black leather with a soft pebble texture and gentle sheen. Bauhaus chairs, industrial sofas and bar stools.',
    withdrawn: false,
    texture: { kind: 'fabric', base: '#211F1E', weave: 'leather' },
  },
];

const METALS: readonly M[] = [
  {
    id: 'mat_brushed_brass',
    categoryId: 'metals',
    name: 'Brushed Brass',
    description:
      'Warm golden brass with fine linear brushing that softens reflections. Taps, handles, light fittings and furniture legs.',
    withdrawn: false,
    texture: { kind: 'metal', base: '#B39A5C', finish: 'brushed' },
  },
  {
    id: 'mat_polished_brass',
    categoryId: 'metals',
    name: 'Polished Brass',
    description:
      'Mirror-polished brass with bright golden reflections. Glamorous accents for Art Deco and Hollywood Regency interiors.',
    withdrawn: false,
    texture: { kind: 'metal', base: '#C6A45C', finish: 'polished' },
  },
  {
    id: 'mat_brushed_stainless_steel',
    categoryId: 'metals',
    name: 'Brushed Stainless Steel',
    description:
      'Cool grey steel with a directional satin grain. Professional kitchens, appliances and splashbacks.',
    withdrawn: false,
    texture: { kind: 'metal', base: '#B2B5B8', finish: 'brushed' },
  },
  {
    id: 'mat_polished_chrome',
    categoryId: 'metals',
    name: 'Polished Chrome',
    description:
      'Bright, cool mirror chrome with crisp reflections. Bathroom fittings, tubular furniture and lighting.',
    withdrawn: false,
    texture: { kind: 'metal', base: '#C4C7CB', finish: 'polished' },
  },
  {
    id: 'mat_brushed_nickel',
    categoryId: 'metals',
    name: 'Brushed Nickel',
    description:
      'Soft warm-grey nickel with a fine brushed finish, between steel and pewter. Understated hardware and taps.',
    withdrawn: false,
    texture: { kind: 'metal', base: '#A8A49B', finish: 'brushed' },
  },
  {
    id: 'mat_matte_black_steel',
    categoryId: 'metals',
    name: 'Matte Black Steel',
    description:
      'Powder-coated steel in soft matte black. Crittall-style frames, lighting, shelving brackets and modern hardware.',
    withdrawn: false,
    texture: { kind: 'metal', base: '#2B2B2C', finish: 'satin' },
  },
  {
    id: 'mat_antique_bronze',
    categoryId: 'metals',
    name: 'Antique Bronze',
    description:
      'Dark oil-rubbed bronze with warm brown depths and softly worn highlights. Traditional hardware, lighting and fire accessories.',
    withdrawn: false,
    texture: { kind: 'metal', base: '#6C5134', finish: 'satin' },
  },
  {
    id: 'mat_hammered_copper',
    categoryId: 'metals',
    name: 'Hammered Copper',
    description:
      'Copper beaten into a pattern of small dimples that scatter warm reflections. Sinks, range hoods and pendant lights.',
    withdrawn: false,
    texture: { kind: 'metal', base: '#AE633A', finish: 'hammered' },
  },
  {
    id: 'mat_verdigris_copper',
    categoryId: 'metals',
    name: 'Verdigris Copper',
    description:
      'Aged copper partly covered by a blue-green verdigris patina. Weathered, artisanal character for splashbacks, lighting and accents.',
    withdrawn: false,
    texture: { kind: 'metal', base: '#9A5B3A', finish: 'patina', patina: '#5E9C89' },
  },
  {
    id: 'mat_weathering_steel',
    categoryId: 'metals',
    name: 'Weathering Steel',
    description:
      'Corten-type steel with a stable rust patina in mottled orange and deep brown. Industrial cladding, planters and fireplaces.',
    withdrawn: false,
    texture: { kind: 'metal', base: '#8E4C2A', finish: 'patina', patina: '#57301F' },
  },
  {
    id: 'mat_blackened_steel',
    categoryId: 'metals',
    name: 'Blackened Steel',
    description:
      'Hot-rolled steel blackened and waxed, with blue-grey mill-scale mottling. Fireplace surrounds, shelving and industrial joinery.',
    withdrawn: false,
    texture: { kind: 'metal', base: '#3B3A38', finish: 'blackened' },
  },
];

const GLASS: readonly M[] = [
  {
    id: 'mat_clear_glass',
    categoryId: 'glass',
    name: 'Clear Glass',
    description:
      'Standard float glass with a faint green edge tint and soft reflections. Doors, partitions and table tops.',
    withdrawn: false,
    texture: { kind: 'glass', tint: '#E3ECE8', style: 'clear' },
  },
  {
    id: 'mat_low_iron_frosted_glass',
    categoryId: 'glass',
    name: 'Frosted Glass',
    description:
      'Acid-etched glass with a smooth, milky translucent face that diffuses light and hides what is behind. Bathroom doors and screens.',
    withdrawn: false,
    texture: { kind: 'glass', tint: '#EDF1EF', style: 'frosted' },
  },
  {
    id: 'mat_reeded_glass',
    categoryId: 'glass',
    name: 'Reeded Glass',
    description:
      'Clear glass with narrow convex vertical ribs that blur and stripe the view behind. Cabinet doors, shower screens and internal windows.',
    withdrawn: false,
    texture: { kind: 'glass', tint: '#E1EAE6', style: 'reeded' },
  },
  {
    id: 'mat_fluted_glass',
    categoryId: 'glass',
    name: 'Fluted Glass',
    description:
      'Glass with wider concave vertical flutes, giving a soft, rhythmic distortion. Art Deco partitions and contemporary joinery.',
    withdrawn: false,
    texture: { kind: 'glass', tint: '#E4EAE6', style: 'fluted' },
  },
  {
    id: 'mat_amber_reeded_glass',
    categoryId: 'glass',
    name: 'Amber Reeded Glass',
    description:
      'Warm amber-tinted glass with fine vertical reeds. A retro 1970s accent for cabinet doors and lighting.',
    withdrawn: false,
    texture: { kind: 'glass', tint: '#C99756', style: 'reeded' },
  },
  {
    id: 'mat_smoked_bronze_glass',
    categoryId: 'glass',
    name: 'Smoked Bronze Glass',
    description:
      'Clear glass tinted a warm smoky bronze. Coffee tables, shelving and cabinet doors with a moody, mid-century feel.',
    withdrawn: false,
    texture: { kind: 'glass', tint: '#8C735C', style: 'clear' },
  },
  {
    id: 'mat_rain_glass',
    categoryId: 'glass',
    name: 'Rain Textured Glass',
    description:
      'Obscure glass with a rippled, raindrop-like surface that breaks up the view while letting light through. Bathrooms and front doors.',
    withdrawn: false,
    texture: { kind: 'glass', tint: '#E4ECE9', style: 'textured' },
  },
  {
    id: 'mat_silver_mirror',
    categoryId: 'glass',
    name: 'Silver Mirror',
    description:
      'Standard clear silvered mirror with crisp, neutral reflections. Wardrobe doors, bathrooms and mirrored walls.',
    withdrawn: false,
    texture: { kind: 'glass', tint: '#D6DADB', style: 'mirror' },
  },
  {
    id: 'mat_bronze_mirror',
    categoryId: 'glass',
    name: 'Bronze Mirror',
    description:
      'Mirror with a warm bronze tint that flatters reflections. Art Deco furniture, splashbacks and feature walls.',
    withdrawn: false,
    texture: { kind: 'glass', tint: '#A88B6B', style: 'mirror' },
  },
  {
    id: 'mat_antique_mirror',
    categoryId: 'glass',
    name: 'Antique Mirror',
    description:
      'Aged mirror with smoky, foxed patches and dark speckles where the silver has oxidised. Vintage glamour for bars, alcoves and furniture.',
    withdrawn: false,
    texture: { kind: 'glass', tint: '#C6BFAE', style: 'antique_mirror' },
  },
];

/** All materials, including withdrawn ones, in category then catalogue order. */
export const EDIT_MATERIALS: readonly EditMaterial[] = [
  ...FLOORING,
  ...WALLS,
  ...PAINT,
  ...WALLPAPER,
  ...TILES,
  ...STONE,
  ...COUNTERTOPS,
  ...WOOD,
  ...FABRICS,
  ...METALS,
  ...GLASS,
];

// ---------------------------------------------------------------------------------------------
// Lookups
// ---------------------------------------------------------------------------------------------

const styleById = new Map(STYLES.map((s) => [s.id, s]));
const categoryById = new Map(EDIT_MATERIAL_CATEGORIES.map((c) => [c.id, c]));
const materialById = new Map<string, EditMaterial>(EDIT_MATERIALS.map((m) => [m.id, m]));

export function getStyle(id: string): DecorationStyle | undefined {
  return styleById.get(id);
}

export function getEditMaterialCategory(id: string): EditMaterialCategory | undefined {
  return categoryById.get(id);
}

/** Any material, withdrawn or not (e.g. to render an old generation's swatch). */
export function getEditMaterial(id: string): EditMaterial | undefined {
  return materialById.get(id);
}

/** The material if it exists and is not withdrawn — what the API may accept or show (else 404). */
export function getActiveEditMaterial(id: string): EditMaterial | undefined {
  const m = materialById.get(id);
  return m && !m.withdrawn ? m : undefined;
}
