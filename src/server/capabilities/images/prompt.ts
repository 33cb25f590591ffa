/**
 * The edit instruction (spec POST /v1/edits, field prompt): 1 to 1000 Unicode characters, any
 * language; line breaks and tabs allowed; empty text, other control characters and invisible
 * characters (zero width, writing direction) refused. Every refusal is 400 parameter_invalid.
 *
 * Decisions (the spec leaves the edges to us):
 *  - "Characters" are Unicode code points (1000 emoji fit; UTF-16 units are not counted).
 *    Lone surrogates are refused (not Unicode text).
 *  - Allowed controls: \t, \n, \r only. Other C0, DEL and C1 refused; U+2028/U+2029 refused
 *    too (send \n).
 *  - Invisible = Unicode Default_Ignorable_Code_Point (zero-width space/joiners, word joiner,
 *    BOM, soft hyphen, bidi marks/embeddings/isolates incl. U+061C, Hangul fillers, invisible
 *    operators, tags, variation selectors, ...) plus every other format character (Cf) except
 *    the visible prepended concatenation marks (Arabic number signs etc.), plus
 *    noncharacters. Exceptions that real text needs, each tied to its context so they cannot
 *    carry hidden payloads:
 *      · a variation selector directly after a visible character (emoji presentation
 *        U+2764 U+FE0F, keycaps, CJK ideographic variants) — never two in a row, never after
 *        a space (one per character: no room for hidden payloads);
 *      · ZWJ U+200D between emoji (family and profession sequences, the rainbow flag);
 *      · ZWJ / ZWNJ U+200C after a letter or mark of a script that needs joining control
 *        (Persian words such as mi-khaham, Indic conjuncts) and before a letter of such a script;
 *      · tag characters only in an emoji flag tag sequence (U+1F3F4 + 1–7 tags + cancel tag
 *        U+E007F, the Scotland/Wales/England flags), which also stops "ASCII smuggling" via tags.
 *  - Whitespace-only text (including U+2800 braille blank) counts as empty.
 *  The text is returned unchanged (no normalisation).
 */
import { invalidParam } from '@/server/platform/errors';

export const PROMPT_MAX_CODE_POINTS = 1000;

const DEFAULT_IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
const FORMAT = /^\p{Cf}$/u;
const VARIATION_SELECTOR = /^\p{Variation_Selector}$/u;
const WHITE_SPACE = /^\p{White_Space}$/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const EMOJI_MODIFIER = /^\p{Emoji_Modifier}$/u;
const MARK = /^\p{M}$/u;
const NONCHARACTER = /^\p{Noncharacter_Code_Point}$/u;
/** Scripts where ZWJ/ZWNJ change shaping and appear in ordinary text. */
const JOINING_SCRIPT =
  /^[\p{Script_Extensions=Arabic}\p{Script_Extensions=Syriac}\p{Script_Extensions=Nko}\p{Script_Extensions=Mongolian}\p{Script_Extensions=Devanagari}\p{Script_Extensions=Bengali}\p{Script_Extensions=Gurmukhi}\p{Script_Extensions=Gujarati}\p{Script_Extensions=Oriya}\p{Script_Extensions=Tamil}\p{Script_Extensions=Telugu}\p{Script_Extensions=Kannada}\p{Script_Extensions=Malayalam}\p{Script_Extensions=Sinhala}\p{Script_Extensions=Khmer}\p{Script_Extensions=Myanmar}\p{Script_Extensions=Tibetan}]$/u;

/** Cf characters that are visible (prepended concatenation marks): not "invisible". */
const VISIBLE_FORMAT = new Set([0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06dd, 0x070f, 0x0890, 0x0891, 0x08e2, 0x110bd, 0x110cd]);

const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const BLACK_FLAG = 0x1f3f4;
const TAG_FIRST = 0xe0020;
const TAG_LAST = 0xe007e;
const CANCEL_TAG = 0xe007f;
const MAX_FLAG_TAGS = 7;
const BRAILLE_BLANK = 0x2800;
const VS16 = 0xfe0f;

function hex(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

function isTagSpec(cp: number | undefined): boolean {
  return cp !== undefined && cp >= TAG_FIRST && cp <= TAG_LAST;
}

/** Length of a valid emoji tag run starting at i (tags + cancel tag), or 0. */
function flagTagRunLength(cps: readonly number[], i: number): number {
  let j = i;
  while (isTagSpec(cps[j]) && j - i < MAX_FLAG_TAGS) j++;
  if (j === i || cps[j] !== CANCEL_TAG) return 0;
  return j - i + 1;
}

function is(re: RegExp, cp: number | undefined): boolean {
  return cp !== undefined && re.test(String.fromCodePoint(cp));
}

function isVisibleBase(cp: number | undefined): boolean {
  if (cp === undefined) return false;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return false;
  return !is(WHITE_SPACE, cp) && !is(DEFAULT_IGNORABLE, cp) && !is(FORMAT, cp);
}

function zwjBetweenEmoji(prev: number | undefined, next: number | undefined): boolean {
  const prevOk = is(PICTOGRAPHIC, prev) || is(EMOJI_MODIFIER, prev) || prev === VS16;
  return prevOk && is(PICTOGRAPHIC, next);
}

function joinerInScript(prev: number | undefined, next: number | undefined): boolean {
  return (is(JOINING_SCRIPT, prev) || is(MARK, prev)) && is(JOINING_SCRIPT, next);
}

/**
 * Validate the instruction; returns it unchanged. Throws 400 parameter_invalid on `param`
 * with a message naming the offending character and its position (1-based code points).
 */
export function validatePrompt(value: unknown, param = 'prompt'): string {
  if (typeof value !== 'string') throw invalidParam(param, `${param} must be a string.`);
  if (value.length === 0) throw invalidParam(param, `${param} must not be empty.`);
  // A UTF-16 length over 2 × the limit cannot be ≤ 1000 code points: refuse before spreading.
  if (value.length > PROMPT_MAX_CODE_POINTS * 2) {
    throw invalidParam(param, `${param} must be at most ${PROMPT_MAX_CODE_POINTS} characters.`);
  }
  const cps = Array.from(value, (ch) => ch.codePointAt(0) ?? 0);
  if (cps.length > PROMPT_MAX_CODE_POINTS) {
    throw invalidParam(param, `${param} must be at most ${PROMPT_MAX_CODE_POINTS} characters (it has ${cps.length}).`);
  }

  let visible = false;
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i] as number;
    const prev = cps[i - 1];
    const next = cps[i + 1];
    const where = `at position ${i + 1}`;

    if (cp >= 0xd800 && cp <= 0xdfff) throw invalidParam(param, `${param} is not valid Unicode text (lone surrogate ${where}).`);
    if (cp === 0x09 || cp === 0x0a || cp === 0x0d) continue;
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
      throw invalidParam(param, `${param} contains a control character (${hex(cp)}) ${where}; only line breaks and tabs are allowed.`);
    }
    if (cp === 0x2028 || cp === 0x2029) {
      throw invalidParam(param, `${param} contains a line/paragraph separator (${hex(cp)}) ${where}; use \\n.`);
    }
    if (is(NONCHARACTER, cp)) throw invalidParam(param, `${param} contains a noncharacter (${hex(cp)}) ${where}.`);

    if (cp === BLACK_FLAG && isTagSpec(next)) {
      const run = flagTagRunLength(cps, i + 1);
      if (run === 0) throw invalidParam(param, `${param} contains invisible tag characters ${where}.`);
      visible = true;
      i += run;
      continue;
    }

    const ignorable = is(DEFAULT_IGNORABLE, cp);
    if (ignorable || (is(FORMAT, cp) && !VISIBLE_FORMAT.has(cp))) {
      const allowed =
        (is(VARIATION_SELECTOR, cp) && isVisibleBase(prev)) ||
        (cp === ZWJ && (zwjBetweenEmoji(prev, next) || joinerInScript(prev, next))) ||
        (cp === ZWNJ && joinerInScript(prev, next));
      if (!allowed) {
        throw invalidParam(param, `${param} contains an invisible character (${hex(cp)}) ${where}.`);
      }
      continue;
    }

    if (!is(WHITE_SPACE, cp) && cp !== BRAILLE_BLANK) visible = true;
  }
  if (!visible) throw invalidParam(param, `${param} must contain visible text, not only spaces.`);
  return value;
}
