import type { Moderator, ModerationResult } from './moderator';

/**
 * Built-in moderator for edit instructions of interior images.
 *
 * What it is: a curated keyword and phrase filter. The text is normalised (NFKC, lowercase,
 * diacritics and invisible characters removed, common homoglyphs and leetspeak undone,
 * spaced-out letters such as "n.u.d.e" joined, stretched letters such as "nuuude" shortened),
 * then matched, on whole words only, against short multilingual lists (English, French,
 * German, Spanish, Italian). Words that are harmless on their own in interior design ("nude"
 * is a colour, "naked" a bulb, "blood" an orange, "gun" a glue gun) only count next to the
 * words that make them harmful ("naked woman", "blood splattered"), and known harmless
 * phrases ("nude tones", "bath bomb", "rouge sang") are masked first.
 *
 * What it is not: a classifier. It does not understand meaning, negation or intent, covers
 * only the listed languages and terms, and a determined user can phrase around it. For
 * stronger moderation set MODERATION_PROVIDER=openai (see ./openai.ts).
 *
 * Categories use the OpenAI names where one exists so both moderators report alike.
 */
export type BuiltinCategory =
  | 'sexual'
  | 'sexual/minors'
  | 'violence/graphic'
  | 'hate'
  | 'self-harm'
  | 'illicit/weapons'
  | 'illicit/drugs';

export const BUILTIN_CATEGORIES: readonly BuiltinCategory[] = [
  'sexual',
  'sexual/minors',
  'violence/graphic',
  'hate',
  'self-harm',
  'illicit/weapons',
  'illicit/drugs',
];

/**
 * A pattern is written in normalised form (lowercase ASCII, no diacritics). Grammar: words
 * separated by one space; `*` = any further letters; `?`, `(a|b)` as in regular expressions.
 * Patterns always match whole words.
 */
type Pattern = string;

/** Flag when any pattern occurs. */
interface TermRule {
  category: BuiltinCategory;
  any: readonly Pattern[];
}

/** Flag when a pattern of `a` and one of `b` occur at most `within` words apart. */
interface NearRule {
  category: BuiltinCategory;
  a: readonly Pattern[];
  b: readonly Pattern[];
  within: number;
}

// ---------------------------------------------------------------------------------------
// Word lists. Keep them short, factual and free of words common in interior design.
// ---------------------------------------------------------------------------------------

/** Harmless phrases masked before matching (colours, materials, tools, products). */
const SAFE_PHRASES: readonly Pattern[] = [
  // "nude" and "naked" as a colour or a finish, directly before what they describe.
  'nude (tones?|toned|colou?rs?|colou?red|palette|pink|beige|shades?|hues?|paint|rose|neutrals?|lips?tick|' +
    'sofas?|couch(es)?|curtains?|drapes?|rugs?|carpets?|cushions?|pillows?|throws?|linens?|bedding|velvet|' +
    'leather|fabrics?|upholstery|tiles?|walls?|plaster|finish|armchairs?|chairs?|accents?|decor|lampshades?|blinds?)',
  'naked (bulbs?|lightbulbs?|lights?|flames?|wood|timber|beams?|brick|bricks|concrete|plaster|stone|steel|' +
    'walls?|floors?|surfaces?|edges?|eye)',
  '(colou?re?|couleur|farbe) (nude|nudo|nuda)',
  // Bare walls and stone in French, German, Spanish, Italian ("mur nu", "pareti nude").
  '(murs?|pierres?|sols?|wande?|boden|steine?|pared(es)?|muros?|piedras?|suelos?|paret(e|i)|mur(o|i)|pietr(a|e)|pavimento) ' +
    '(nue?s?|nackt(e|en)?|desnud(o|a|os|as)|nud(o|a|i|e))',
  'blood (red|orange|oranges|moon|stone)',
  '(red|rouge|rojo|rosso|rot) (blood|sang|sangre|sangue|blut)',
  'sang de boeuf',
  'sangue di bue',
  'sangre de toro',
  'gore tex',
  'al gore',
  'bath ?bombs?',
  'photo ?bombs?',
  '(glue|nail|staple|heat|spray|caulk|caulking|paint|grease|massage|hot glue|soldering) ?guns?',
  'gun ?metal',
  'gun (cabinet|safe|rack|case|room|display|cupboard)s?',
  '(nerf|water|toy|bubble) ?guns?',
  'pistol grips?',
  'pistol(a|as|e) (de|da|per) (pintura|silicona|calor|aire|vernice|silicone|colla|pittura)',
  'bomb ?shelters?',
  '(a la|en) bombe', 'bombes? (de peinture|aerosols?)',
  'bomb(a|as|e) (de|di) (calor|agua|calore|acqua|piscina|vacio)',
  'pussy ?willows?',
  '(blue|great|coal|marsh|long tailed) tits',
  'sex pistols',
];

/** Adult or any person, in all five languages. */
const PERSONS: readonly Pattern[] = [
  // en
  'wom(a|e)ns?', 'm(a|e)ns?', 'girls?', 'boys?', 'guys?', 'lad(y|ies)', 'persons?', 'people',
  'bod(y|ies)', 'models?', 'someone', 'somebody', 'wife', 'husband', 'girlfriend', 'boyfriend',
  // fr
  'femmes?', 'hommes?', 'filles?', 'garcons?', 'personnes?', 'corps', 'gens', 'dames?',
  // de
  'frau(en)?', 'mann', 'manner', 'madchen', 'junge(n)?', 'person(en)?', 'korper', 'leute',
  // es
  'mujer(es)?', 'hombres?', 'chic(a|o)s?', 'personas?', 'cuerpos?', 'gente',
  // it
  'donn(a|e)', 'uom(o|ini)', 'ragazz(a|e|o|i)', 'person(a|e)', 'corp(o|i)',
];

/** Unclothed. Harmless alone ("nude tones", "mur nu", "parete nuda"), so only near a person. */
const NUDITY: readonly Pattern[] = [
  'naked', 'nude', 'nudes', 'undressed', 'unclothed', 'topless', 'without clothes', 'no clothes',
  'nue?s?', 'deshabille(e|s|es)?', 'sans vetements',
  'nackt(e|er|en|es)?', 'ohne kleidung',
  'desnud(o|a|os|as)', 'sin ropa',
  'nud(o|a|i|e)', 'svestit(o|a|i|e)', 'senza vestiti',
];

/** Sexual words that are not explicit alone but are next to a minor. */
const SUGGESTIVE: readonly Pattern[] = [
  ...NUDITY,
  'sexy', 'sex', 'sexe', 'sexo', 'sesso', 'sexual*', 'sexuel*', 'sexuell*', 'sessual*', 'porn*', 'erot*',
  'lingerie', 'seductive', 'undress*', 'in (underwear|panties)',
];

const MINORS: readonly Pattern[] = [
  // en
  'child', 'children', 'childs', 'childrens', 'kids?', 'kiddies', 'minors?', 'underage', 'under age',
  'pre ?teens?', 'teens?', 'teenagers?', 'teenage', 'toddlers?', 'bab(y|ies)', 'infants?',
  'school ?girls?', 'school ?boys?', '(little|young) (girl|boy)s?',
  // fr
  'enfants?', 'fillettes?', 'petite? (fille|garcon)s?', 'mineure?s?', 'adolescente?s?', 'bebes?',
  'jeunes? (fille|garcon)s?',
  // de
  'kinder', 'kindes', 'kindern', 'minderjahrig*', 'jugendlich*', 'kleine[nrs]? (madchen|junge|jungen)',
  // es
  'nin(o|a|os|as)', 'menores?', 'menor de edad',
  // it
  'bambin(o|a|i|e)', 'minorenn(e|i)', 'ragazzin(o|a|i|e)',
];

const TERM_RULES: readonly TermRule[] = [
  {
    category: 'sexual',
    any: [
      'porn*', 'x ?rated', 'hentai', 'nsfw', 'onlyfans', 'erot*',
      'nudity', 'nudite', 'nacktheit', 'desnudez', 'nudita',
      'sex', 'sexe', 'sexo', 'sesso', 'sexual*', 'sexuel*', 'sexuell*', 'sessual*', 'sex ?toys?', 'sex ?tapes?',
      'intercourse', 'geschlechtsverkehr', 'coito', 'blow ?jobs?', 'hand ?jobs?', 'fellati(o|on)',
      'pompin(o|i)', 'mamadas?', 'cunnilingus', 'masturb*', 'orgasm*', 'org(y|ies|ie|ien|ia|ias)',
      'genital*', 'penis(es)?', 'vagin(a|as|e)?', 'vulvas?', 'dildos?', 'striptease', 'strippers?',
      'cum ?shots?', 'ejacul*', 'boobs', 'tits', 'titties', 'pussy', 'seins nus',
      'rape', 'raped', 'rapes', 'raping', 'rapists?', 'viol', 'violer', 'violee?s?', 'vergewaltig*',
      'violacion', 'violad(a|as)', 'stupr(o|i|at*)',
    ],
  },
  {
    category: 'sexual/minors',
    any: [
      'child ?porn*', 'kinderporn*', 'pedoporn*', 'lolicon', 'loli', 'shotacon', 'jailbait',
      'pedophil*', 'paedophil*', 'pedofil*', 'padophil*', 'pedo', 'pedos',
    ],
  },
  {
    category: 'violence/graphic',
    any: [
      'gore', 'gory', 'corpses?', 'cadav(er|ers|re|res|eres|ere|eri)', 'leichen?', 'leichnam(e)?',
      'decapitat*', 'decapite*', 'decapitad*', 'behead*', 'enthaupt*',
      'dismember*', 'demembre*', 'desmembr*', 'smembr*', 'squartat*', 'descuartiza*', 'zerstuckel*',
      'mutil*', 'verstummel*', 'disembowel*', 'eviscerat*', 'entrails', 'viscera',
      'blood ?bath', 'blood ?stain*', 'blood ?soaked', 'blood ?spatter*', 'blood ?splatter*', 'bloodied',
      'blutbad', 'blutlache', 'blutspritzer', 'blutverschmiert*',
      'bain de sang', 'bano de sangre', 'bagno di sangue',
      'severed (heads?|limbs?|arms?|legs?|hands?|fingers?|body parts?)',
      'tetes? coupees?', 'cabezas? cortadas?', 'test(a|e) mozzat(a|e)', 'abgetrennte?[nrs]? (kopf|kopfe)',
      'slit throats?', 'throats? slit', 'stabbed to death', 'shot (dead|in the head)', 'gunshot wounds?',
      'mass shootings?', 'school shootings?', 'massacre*', 'massacr(o|i)', 'massaker',
      'tortur*', 'folter*', 'lynching', 'lynched', 'lynch mob', 'murdered', 'murder victims?',
      'hanged (m(a|e)n|wom(a|e)n|bod(y|ies)|persons?|people)', 'hanging bod(y|ies)',
    ],
  },
  {
    category: 'hate',
    any: [
      'nigg(er|ers|a|as|az)', 'faggots?', 'kikes?', 'wetbacks?', 'ragheads?', 'towelheads?',
      'swastikas?', 'hakenkreuz*', 'white power', 'heil hitler', 'sieg heil', 'ku klux klan', 'kkk',
      'gas the jews', '1488', 'bougnoules?', 'youpine?s?', 'neger', 'kanaken?', 'schwuchteln?',
      'judensau', 'sudacas?', 'maricon(es)?', 'negratas?', 'froci(o)?',
    ],
  },
  {
    category: 'self-harm',
    any: [
      'suicid*', 'suizid*', 'selbstmord*', 'self ?harm*', 'selbstverletz*', 'autolesion*', 'automutil*',
      '(cut|cutting|slit|slitting|slash|slashed|slashing) ((my|his|her|their|your|the) )?wrists?',
      'kill (myself|yourself|himself|herself|themselves)', 'hang(ing)? (myself|yourself|himself|herself|themselves)',
      'nooses?', 'se pendre', 'pendue?s?', 'ahorcad(o|a|os|as)', 'ahorcarse', 'impiccat(o|a|i|e)', 'erhang*',
    ],
  },
  {
    category: 'illicit/weapons',
    any: [
      '(pipe|nail|car) ?bombs?', 'molotov*', 'ieds?', 'improvised explosive*', 'explosive (device|vest)s?',
      'suicide vests?', 'ghost guns?', 'zip ?guns?', '3 ?d printed (guns?|firearms?|pistols?|rifles?)',
      'napalm', 'sarin', 'ricin', 'nerve (agent|gas)', 'bombenbau*',
    ],
  },
  {
    category: 'illicit/drugs',
    any: [
      'meth ?labs?', 'drug ?labs?', 'drogenlabor*', 'crystal meth', 'grow ?ops?', 'cannabis farms?',
      'cook(ing)? meth', '(labo|laboratoire)s? (de )?(drogue|meth|cocaine)s?',
      'laboratorios? (de )?(drogas?|metanfetamina|cocaina)', 'laborator(io|i) (di )?(droga|metanfetamina|cocaina)',
    ],
  },
];

const NEAR_RULES: readonly NearRule[] = [
  { category: 'sexual', a: NUDITY, b: PERSONS, within: 2 },
  { category: 'sexual/minors', a: SUGGESTIVE, b: MINORS, within: 3 },
  {
    category: 'violence/graphic',
    a: [
      'dead', 'deceased', 'lifeless', 'mort', 'morte', 'morts', 'mortes', 'morto', 'morta', 'morti',
      'tot', 'tote', 'toten', 'toter', 'muert(o|a|os|as)', 'sans vie', 'sin vida', 'senza vita', 'leblos*',
    ],
    b: PERSONS,
    within: 1,
  },
  {
    category: 'violence/graphic',
    a: [
      'mangled', 'bloody', 'rotting', 'decomposing', 'decomposed', 'charred', 'ensanglante*', 'blutig*',
      'ensangrentad*', 'insanguinat*',
    ],
    b: [...PERSONS, 'flesh', 'limbs', 'heads?'],
    within: 1,
  },
  {
    category: 'violence/graphic',
    a: ['blood', 'blut', 'sang', 'sangre', 'sangue', 'brains', 'guts', 'intestines', 'innards'],
    b: [
      // en
      'splatter*', 'spatter*', 'splash*', 'drip*', 'pools?', 'puddles?', 'smear*', 'soaked', 'covered',
      'everywhere', 'gush*', 'spray*', 'trails?', 'stain*', 'pouring', 'oozing',
      // de
      'bespritzt', 'verspritzt', 'spritz*', 'lache', 'pfutzen?', 'verschmiert', 'uberall', 'getrankt',
      // fr
      'eclabouss*', 'gicl*', 'flaques?', 'mares?', 'taches?', 'tache*', 'partout', 'couvert*', 'macule*',
      'coule', 'coulant', 'coulait', 'coulent',
      // es
      'salpicad*', 'salpicadur*', 'charcos?', 'manchad*', 'manchas?', 'chorre*', 'cubiert*', 'empapad*',
      'por todas partes', 'por todos lados',
      // it
      'schizz*', 'pozz(a|e)', 'macchi(a|e)', 'ovunque', 'grondant*', 'copert*', 'dappertutto', 'imbrattat*',
      'intris*',
    ],
    within: 3,
  },
  {
    category: 'illicit/weapons',
    a: [
      'make', 'makes', 'making', 'build', 'builds', 'building', 'assembl*', 'manufactur*', 'how to',
      'recipes?', 'blueprints?', 'schematics?', 'diy', 'homemade', 'home made', 'improvised',
      'fabriqu*', 'construi*', 'comment faire', 'faire', 'herstell*', 'bauen', 'baut', 'basteln', 'anleitung',
      'fabric(a|ar|ando)', 'construir*', 'como hacer', 'hacer', 'costrui*', 'fabbric*', 'come fare',
    ],
    b: [
      'bomb(s|e|es|en|a|as)?', 'grenad(e|es|a|as)', 'granaten?', 'guns?', 'firearms?', 'rifles?', 'pistol(s|e|a|as)?',
      'silencers?', 'suppressors?', 'ammunition', 'ammo', 'detonators?', 'explosives', 'explosifs?',
      'explosivos?', 'esplosiv(o|i)', 'sprengstoff*', 'sprengsatz*', 'armes? a feu', 'arm(a|i) da fuoco', 'armas?',
      'waffen?', 'schusswaff*', 'munitions?', 'municion(es)?', 'munizion(i|e)', 'fucil(e|i)',
    ],
    within: 3,
  },
  {
    category: 'illicit/drugs',
    a: [
      'cook*', 'synthes*', 'synthetis*', 'produc*', 'produi*', 'produrre', 'manufactur*', 'make', 'makes', 'making',
      'extract*', 'refin*', 'grow', 'grows', 'growing', 'cultiv*', 'coltiv*', 'labs?', 'labo', 'labor',
      'laborator*', 'recipes?', 'how to', 'fabriqu*', 'fabric*', 'herstell*', 'koch(en|t)?', 'synthetisier*',
      'anbau*', 'sintetiz*', 'cocin*', 'cucin*',
    ],
    b: [
      'meth', 'methamphetamin*', 'metamfetamin*', 'metanfetamin*', 'amphetamin*', 'anfetamin*', 'cocaine',
      'cocaina', 'kokain', 'crack cocaine', 'heroin(e)?', 'heroina', 'eroina', 'fentanyl', 'fentanil(o)?', 'mdma',
      'lsd', 'opium', 'oppio', 'cannabis', 'marijuana', 'marihuana', 'hash oil', 'drugs?', 'drogues?',
      'drogen?', 'drogas?',
    ],
    within: 3,
  },
];

// ---------------------------------------------------------------------------------------
// Normalisation
// ---------------------------------------------------------------------------------------

/** Look-alike letters NFKC keeps apart (Cyrillic, Greek) and letters NFD does not split. */
const CONFUSABLES: Readonly<Record<string, string>> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  і: 'i', ї: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ɡ: 'g',
  α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x',
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i',
};

function baseNormalise(text: string): string {
  const lowered = text.normalize('NFKC').toLowerCase().replace(/\p{Cf}/gu, '');
  const mapped = Array.from(lowered, (ch) => CONFUSABLES[ch] ?? ch).join('');
  return mapped.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}

/** `1` is either an i or an l, so both readings are tried. */
type LeetMode = 'none' | 'i' | 'l';

const LEET_COMMON: Readonly<Record<string, string>> = {
  '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '€': 'e',
};

/** Undo leetspeak only inside words that contain a letter, so "5 chairs" and "$500" stay. */
function undoLeet(text: string, mode: LeetMode): string {
  if (mode === 'none') return text;
  const one = mode;
  return text.replace(/\S+/gu, (token) => {
    if (!/\p{L}/u.test(token)) return token;
    // "!" and "|" stand for i/l only between word characters; at the end they are punctuation.
    const inner = token.replace(/(?<=[\p{L}\p{N}@$])[!|](?=[\p{L}\p{N}@$])/gu, one);
    return Array.from(inner, (ch) => (ch === '1' ? one : (LEET_COMMON[ch] ?? ch))).join('');
  });
}

/**
 * Join runs of single letters split by one repeated separator ("n.u.d.e", "p o r n").
 * With `keepArticle`, a leading one-letter word ("a", "y", "o", "e", "i") stays apart, so
 * "a n u d e" also reads as "a nude".
 */
function joinSpacedLetters(text: string, keepArticle: boolean): string {
  return text.replace(
    /(?<![\p{L}\p{N}])\p{L}([^\p{L}\p{N}]{1,3})\p{L}(?:\1\p{L})+(?![\p{L}\p{N}])/gu,
    (run: string, sep: string) => {
      const letters = run.split(sep);
      const first = letters[0] ?? '';
      if (keepArticle && /^\s+$/u.test(sep) && 'aeioy'.includes(first) && letters.length > 3) {
        return `${first} ${letters.slice(1).join('')}`;
      }
      return letters.join('');
    },
  );
}

/**
 * Every reading of `text` the rules are matched against: leet off / as i / as l, spaced
 * letters joined with or without a leading article, in-word punctuation dropped ("nu-de")
 * or read as a space ("self-harm"), stretched letters cut to one or two ("nuuude", "kiiill").
 * Each reading is lowercase words of letters and digits separated by single spaces.
 */
export function normaliseVariants(text: string): string[] {
  const base = baseNormalise(text);
  const out = new Set<string>();
  for (const leet of ['none', 'i', 'l'] as const) {
    const unleeted = undoLeet(base, leet);
    for (const keepArticle of [false, true]) {
      const joined = joinSpacedLetters(unleeted, keepArticle);
      for (const inWord of ['', ' ']) {
        const words = joined
          .replace(/(?<=\p{L})[.\-_*·•'’`|~^+:]+(?=\p{L})/gu, inWord)
          .replace(/[^\p{L}\p{N}]+/gu, ' ')
          .trim();
        out.add(words.replace(/(\p{L})\1{2,}/gu, '$1'));
        out.add(words.replace(/(\p{L})\1{2,}/gu, '$1$1'));
      }
    }
  }
  return [...out];
}

// ---------------------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------------------

/** One whole-word regular expression for a list of patterns. */
function compile(patterns: readonly Pattern[]): RegExp {
  const body = patterns.map((p) => p.replace(/\*/g, '\\p{L}*')).join('|');
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${body})(?![\\p{L}\\p{N}])`, 'gu');
}

interface CompiledNear {
  category: BuiltinCategory;
  a: RegExp;
  b: RegExp;
  within: number;
}

const SAFE = compile(SAFE_PHRASES);
const TERMS = TERM_RULES.map((r) => ({ category: r.category, re: compile(r.any) }));
const NEAR: readonly CompiledNear[] = NEAR_RULES.map((r) => ({
  category: r.category,
  a: compile(r.a),
  b: compile(r.b),
  within: r.within,
}));

/** Word spans [first, last] of every match; words are separated by single spaces. */
function spans(re: RegExp, text: string): Array<[number, number]> {
  const result: Array<[number, number]> = [];
  for (const m of text.matchAll(re)) {
    const first = countSpaces(text.slice(0, m.index));
    result.push([first, first + countSpaces(m[0])]);
  }
  return result;
}

function countSpaces(s: string): number {
  let n = 0;
  for (const ch of s) if (ch === ' ') n += 1;
  return n;
}

function near(rule: CompiledNear, text: string): boolean {
  const as = spans(rule.a, text);
  if (as.length === 0) return false;
  const bs = spans(rule.b, text);
  for (const [a0, a1] of as) {
    for (const [b0, b1] of bs) {
      const wordsBetween = Math.max(b0 - a1, a0 - b1) - 1;
      if (wordsBetween <= rule.within) return true;
    }
  }
  return false;
}

/** Categories the text falls into, in BUILTIN_CATEGORIES order; empty when clean. */
export function classify(text: string): BuiltinCategory[] {
  const found = new Set<BuiltinCategory>();
  for (const variant of normaliseVariants(text)) {
    // "~" is not a letter, so masked phrases neither match nor join their neighbours.
    const masked = variant.replace(SAFE, '~');
    for (const t of TERMS) {
      t.re.lastIndex = 0;
      if (!found.has(t.category) && t.re.test(masked)) found.add(t.category);
    }
    for (const r of NEAR) if (!found.has(r.category) && near(r, masked)) found.add(r.category);
  }
  return BUILTIN_CATEGORIES.filter((c) => found.has(c));
}

/** Every pattern of the lists, for the test that checks they are written in normalised form. */
export function allPatterns(): Pattern[] {
  return [
    ...SAFE_PHRASES,
    ...TERM_RULES.flatMap((r) => r.any),
    ...NEAR_RULES.flatMap((r) => [...r.a, ...r.b]),
  ];
}

export class BuiltinModerator implements Moderator {
  async check(text: string, signal?: AbortSignal): Promise<ModerationResult> {
    signal?.throwIfAborted();
    const categories = classify(text);
    return { flagged: categories.length > 0, categories };
  }
}
