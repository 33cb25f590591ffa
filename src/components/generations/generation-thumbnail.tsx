import * as React from 'react';
import { ImageOff } from 'lucide-react';

/**
 * The first output as a small square in the generations list (lazy: only rows on screen load
 * it), or a placeholder while there is none (in progress, failed, or deleted by retention).
 */
export function GenerationThumbnail({ generation }: { generation: { id: string; status: string; output: readonly { url: string }[] } }) {
  const first = generation.output[0];
  if (!first) {
    return (
      <span className="flex size-12 items-center justify-center rounded border bg-muted text-muted-foreground" data-testid="thumbnail-empty">
        <ImageOff className="size-4" aria-hidden />
        <span className="sr-only">No output image ({generation.status})</span>
      </span>
    );
  }
  return (
    // eslint-disable-next-line @next/next/no-img-element -- signed object-store URLs; Next's optimizer cannot fetch them.
    <img src={first.url} alt={`Output of ${generation.id}`} width={48} height={48} loading="lazy" decoding="async" className="size-12 rounded border object-cover" data-testid="thumbnail" />
  );
}
