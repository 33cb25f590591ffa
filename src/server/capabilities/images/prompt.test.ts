import { describe, expect, it } from 'vitest';

import { DomainError } from '@/server/platform/errors';
import type { ApiError } from '@/server/doors/errors';
import { toHttpError } from '@/server/doors/errors';
import { PROMPT_MAX_CODE_POINTS, validatePrompt } from './prompt';

function refusedWith(value: unknown, param = 'prompt'): ApiError {
  let err: unknown = null;
  try {
    validatePrompt(value, param);
  } catch (e) {
    err = e;
  }
  expect(err, JSON.stringify(value)).toBeInstanceOf(DomainError);
  const e = toHttpError(err as DomainError);
  expect({ status: e.status, code: e.code, param: e.param }).toEqual({ status: 400, code: 'parameter_invalid', param });
  return e;
}

describe('validatePrompt: accepted', () => {
  const accepted: Array<[string, string]> = [
    ['plain', 'Paint the walls sage green'],
    ['one character', 'x'],
    ['line breaks and tabs', 'Replace the sofa.\nKeep the rug.\r\nLight:\twarm'],
    ['French', 'Remplacer le canapé par un fauteuil en velours côtelé'],
    ['Japanese', '床をオーク材のフローリングにしてください'],
    ['Chinese', '把墙刷成浅灰色'],
    ['Arabic (RTL, no bidi controls needed)', 'اجعل الجدران بيضاء'],
    ['Hebrew', 'צבע את הקירות בלבן'],
    ['Persian with ZWNJ', 'می\u200Cخواهم دیوار سفید باشد'],
    ['Hindi with ZWJ/ZWNJ', 'क्\u200Dष और क्\u200Cष'],
    ['Thai', 'ทาสีผนังเป็นสีขาว'],
    ['Korean', '벽을 흰색으로 칠해 주세요'],
    ['combining accents', 'cafe\u0301 e\u0300'],
    ['emoji', 'Add plants 🌿🪴 and a cat 🐈'],
    ['emoji presentation selector', 'Add a red heart ❤️ sign'],
    ['keycap', 'Number 1️⃣ shelf'],
    ['ZWJ family and skin tones', 'Photo of 👨\u200D👩\u200D👧\u200D👦 and 👩🏽\u200D💻'],
    ['rainbow flag', '🏳️\u200D🌈 flag on the wall'],
    ['kiss sequence', '👩\u200D❤️\u200D💋\u200D👨'],
    ['subdivision flag (tags)', 'Scottish flag 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} on the wall'],
    ['CJK variation selector', '葛\u{E0100}城'],
    ['non-breaking and ideographic spaces inside text', 'a\u00a0b\u3000c'],
    ['Arabic number sign (visible format char)', '\u0600١٢'],
    ['private use (e.g. logo glyph)', 'Apple \uF8FF'],
  ];
  it.each(accepted)('%s', (_name, text) => {
    expect(validatePrompt(text)).toBe(text);
  });

  it('1000 emoji (2000 UTF-16 units) are accepted; 1001 refused', () => {
    const thousand = '😀'.repeat(PROMPT_MAX_CODE_POINTS);
    expect(thousand.length).toBe(2000);
    expect(validatePrompt(thousand)).toBe(thousand);
    const e = refusedWith('😀'.repeat(1001));
    expect(e.message).toMatch(/1000/);
  });

  // How fast a huge string is refused is a benchmark matter (bench/), not a unit assertion.
  it('1000 ASCII characters ok, 1001 refused, huge strings refused', () => {
    expect(validatePrompt('a'.repeat(1000))).toHaveLength(1000);
    refusedWith('a'.repeat(1001));
    refusedWith('a'.repeat(5_000_000));
  });
});

describe('validatePrompt: refused', () => {
  const refused: Array<[string, unknown]> = [
    ['not a string', 42],
    ['null', null],
    ['array', ['a']],
    ['empty', ''],
    ['spaces only', '   '],
    ['whitespace only incl. newlines and tabs', ' \n\t\r\n '],
    ['NBSP / ideographic space only', '\u00a0\u3000'],
    ['braille blank only', '\u2800\u2800'],
    ['NUL', 'a\u0000b'],
    ['bell', 'a\u0007b'],
    ['vertical tab', 'a\u000bb'],
    ['form feed', 'a\u000cb'],
    ['escape', 'a\u001b[31mred'],
    ['DEL', 'a\u007fb'],
    ['C1 NEL', 'a\u0085b'],
    ['C1 CSI', 'a\u009bb'],
    ['line separator', 'a\u2028b'],
    ['paragraph separator', 'a\u2029b'],
    ['zero width space', 'paint\u200Bthe wall'],
    ['ZWNJ between Latin letters', 'pa\u200Cint'],
    ['ZWJ between Latin letters', 'pa\u200Dint'],
    ['ZWJ at the end of an emoji', '👨\u200D'],
    ['ZWJ before a letter after an emoji', '👨\u200Da'],
    ['word joiner', 'a\u2060b'],
    ['BOM / ZWNBSP at the start', '\uFEFFpaint'],
    ['BOM inside', 'pa\uFEFFint'],
    ['soft hyphen', 'wall\u00ADpaper'],
    ['LRM', 'a\u200Eb'],
    ['RLM', 'a\u200Fb'],
    ['LRE', 'a\u202Ab'],
    ['RLE', 'a\u202Bb'],
    ['PDF', 'a\u202Cb'],
    ['LRO', 'a\u202Db'],
    ['RLO (Trojan source)', 'a\u202Eb'],
    ['LRI', 'a\u2066b'],
    ['RLI', 'a\u2067b'],
    ['FSI', 'a\u2068b'],
    ['PDI', 'a\u2069b'],
    ['Arabic letter mark', 'ا\u061Cب'],
    ['invisible times', 'a\u2062b'],
    ['Mongolian vowel separator', 'a\u180Eb'],
    ['Hangul filler', 'a\u3164b'],
    ['halfwidth Hangul filler', '\uFFA0'],
    ['combining grapheme joiner', 'a\u034Fb'],
    ['interlinear annotation', 'a\uFFF9b\uFFFAc\uFFFB'],
    ['variation selector at the start', '\uFE0Fpaint'],
    ['variation selector after a space', 'a \uFE0F'],
    ['two variation selectors in a row', '❤\uFE0F\uFE0F'],
    ['variation selector smuggling (many VS after an emoji)', `😀${'\u{E0101}\u{E0102}\u{E0103}'}`],
    ['ASCII smuggling with tags', `hello${'\u{E0069}\u{E0067}\u{E006E}'}`],
    ['tags after a black flag without cancel tag', '🏴\u{E0067}\u{E0062}'],
    ['too many tags after a black flag', `🏴${'\u{E0061}'.repeat(8)}\u{E007F}`],
    ['lone cancel tag', 'a\u{E007F}'],
    ['language tag', '\u{E0001}\u{E0065}\u{E006E}hello'],
    ['lone high surrogate', 'a\uD83Db'],
    ['lone low surrogate', 'a\uDE00b'],
    ['noncharacter', 'a\uFFFEb'],
    ['noncharacter U+FDD0', 'a\uFDD0b'],
  ];
  it.each(refused)('%s', (_name, value) => {
    refusedWith(value);
  });

  it('names the character and position; uses the given param', () => {
    const e = refusedWith('ab\u200Bc');
    expect(e.message).toMatch(/U\+200B/);
    expect(e.message).toMatch(/position 3/);
    refusedWith('x\u0000', 'layers[0].prompt');
  });
});
