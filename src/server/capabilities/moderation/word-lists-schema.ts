import { z } from 'zod';

/**
 * The shape of word-lists.json, the built-in moderator's data: named lists, harmless phrases
 * masked first, term rules (any pattern flags) and near rules (a pattern of `a` within `within`
 * words of one of `b`). `@name` inside a list stands for the named list; the refinement checks
 * that every name exists, so a typo fails at the first check, not silently.
 */
export const BUILTIN_CATEGORIES = ['sexual', 'sexual/minors', 'violence/graphic', 'hate', 'self-harm', 'illicit/weapons', 'illicit/drugs'] as const;
export type BuiltinCategory = (typeof BUILTIN_CATEGORIES)[number];

const pattern = z.string().regex(/^[a-z0-9 ?*()|[\]@-]+$/, 'a pattern is lowercase ASCII in normalised form');
const patterns = z.array(pattern).min(1);
const category = z.enum(BUILTIN_CATEGORIES);

export const wordListsSchema = z
  .strictObject({
    $comment: z.string().optional(),
    lists: z.record(z.string().regex(/^[a-z]+$/), patterns),
    safePhrases: patterns,
    termRules: z.array(z.strictObject({ category, any: patterns })),
    nearRules: z.array(z.strictObject({ category, within: z.int().min(0).max(10), a: patterns, b: patterns })),
  })
  .superRefine((data, ctx) => {
    const all = [...Object.values(data.lists), data.safePhrases, ...data.termRules.map((r) => r.any), ...data.nearRules.flatMap((r) => [r.a, r.b])];
    for (const list of all) {
      for (const entry of list) {
        if (entry.startsWith('@') && !(entry.slice(1) in data.lists)) ctx.addIssue({ code: 'custom', message: `unknown list ${entry}` });
        else if (!entry.startsWith('@') && entry.includes('@')) ctx.addIssue({ code: 'custom', message: `"@" only starts a list reference: ${entry}` });
      }
    }
  });

export type WordLists = z.infer<typeof wordListsSchema>;
