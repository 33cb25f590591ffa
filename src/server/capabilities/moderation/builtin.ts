import type { Moderator, ModerationResult } from './moderator';
import wordListsJson from './word-lists.json';
import { BUILTIN_CATEGORIES, wordListsSchema, type BuiltinCategory } from './word-lists-schema';

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
export { BUILTIN_CATEGORIES, type BuiltinCategory } from './word-lists-schema';

/**
 * A pattern is written in normalised form (lowercase ASCII, no diacritics). Grammar: words
 * separated by one space; `*` = any further letters; `?`, `(a|b)` as in regular expressions.
 * Patterns always match whole words. The lists are data: word-lists.json.
 */
type Pattern = string;

/** The word lists, validated once per process, with every `@name` replaced by its list. */
function loadWordLists() {
  const data = wordListsSchema.parse(wordListsJson);
  const expand = (list: readonly Pattern[], seen: readonly string[] = []): Pattern[] =>
    list.flatMap((entry) => {
      if (!entry.startsWith('@')) return [entry];
      const name = entry.slice(1);
      if (seen.includes(name)) throw new Error(`word-lists.json: list @${name} includes itself`);
      return expand(data.lists[name]!, [...seen, name]);
    });
  return {
    safePhrases: expand(data.safePhrases),
    termRules: data.termRules.map((r) => ({ category: r.category, any: expand(r.any) })),
    nearRules: data.nearRules.map((r) => ({ category: r.category, a: expand(r.a), b: expand(r.b), within: r.within })),
  };
}

const { safePhrases: SAFE_PHRASES, termRules: TERM_RULES, nearRules: NEAR_RULES } = loadWordLists();

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
