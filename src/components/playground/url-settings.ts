import { ACCESSORY_CATEGORIES, QUALITIES, SCALES } from '@/shared/creations/schemas';
import { CREATION_KINDS } from '@/shared/playground/playground-inputs';
import { DEFAULT_FORM, type PlaygroundForm } from './playground-request';

/**
 * The kind and its settings in the playground's URL (a link or a reload opens the same form),
 * beside `gen`, the generation the result shows (a reload during a run picks it up again).
 * Metadata, images and layers stay out of the URL: the page's draft keeps them.
 */
const oneOf = <T extends string>(list: readonly T[], value: string | null): T | undefined => (list as readonly string[]).includes(value ?? '') ? (value as T) : undefined;

export function formFromSearch(search: URLSearchParams, base: PlaygroundForm = DEFAULT_FORM): PlaygroundForm {
  const categories = (search.get('categories') ?? '').split(',').filter((c): c is (typeof ACCESSORY_CATEGORIES)[number] => (ACCESSORY_CATEGORIES as readonly string[]).includes(c));
  return {
    ...base,
    kind: oneOf(CREATION_KINDS, search.get('kind')) ?? base.kind,
    quality: oneOf(QUALITIES, search.get('quality')) ?? base.quality,
    scale: oneOf(SCALES, search.get('scale')) ?? base.scale,
    style: search.has('style') ? (search.get('style') ?? '').slice(0, 64) : base.style,
    categories: search.has('categories') ? categories : base.categories,
    mode: oneOf(['prompt', 'mask'] as const, search.get('mode')) ?? base.mode,
    prompt: search.has('prompt') ? (search.get('prompt') ?? '').slice(0, 1000) : base.prompt,
    background: search.has('background') ? search.get('background') === '1' : base.background,
  };
}

/** The query of the form (only what differs from the defaults) and the shown generation. */
export function searchOfForm(form: PlaygroundForm, generationId: string | null, keep: URLSearchParams): URLSearchParams {
  const search = new URLSearchParams();
  const replay = keep.get('replay');
  if (replay) search.set('replay', replay);
  search.set('kind', form.kind);
  if (form.kind === 'upscale') search.set('scale', form.scale);
  else search.set('quality', form.quality);
  if ((form.kind === 'render' || form.kind === 'decoration') && form.style) search.set('style', form.style);
  if (form.kind === 'decoration' && form.categories.length > 0) search.set('categories', form.categories.join(','));
  if (form.kind === 'edit') {
    search.set('mode', form.mode);
    if (form.mode === 'prompt' && form.prompt) search.set('prompt', form.prompt);
  }
  if (form.background) search.set('background', '1');
  if (generationId) search.set('gen', generationId);
  return search;
}
