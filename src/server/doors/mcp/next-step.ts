import type { ApiGeneration } from '@/server/capabilities/generation-object/serialize';

/** The one sentence after a generation that tells an agent what to do next (spec: MCP rule 5). */
export function nextStep(generation: ApiGeneration): string {
  switch (generation.status) {
    case 'succeeded': {
      const out = generation.output[0];
      if (!out) return `The generation ${generation.id} succeeded; its images have been deleted (they are kept 24 hours after the end).`;
      const until = new Date(out.url_expires_at * 1000).toISOString();
      return `The generation succeeded: the full-resolution image (${out.width}x${out.height}, ${out.content_type}) is at output[0].url, valid 15 minutes (until ${until}); call get_generation with id "${generation.id}" for a fresh URL, or pass the URL as image to another tool to chain.`;
    }
    case 'in_progress':
      return `The generation is still in progress${generation.progress !== null ? ` (${Math.round(generation.progress * 100)} % done)` : ''}: call get_generation with id "${generation.id}" now (it waits up to 50 seconds) and again while it is in progress; after 5 minutes stop and give the user the id (the generation continues and stays readable).`;
    case 'failed':
      return generation.error?.code === 'content_policy_violation'
        ? `The generation failed: moderation refused the request (content_policy_violation); do not resend the same request. Nothing was charged (refunded).`
        : `The generation failed for a technical reason (${generation.error?.code ?? 'generation_failed'}) and was refunded; try again later with a new request.`;
    case 'canceled':
      return `The generation was canceled and refunded; create a new one if it is still needed.`;
  }
}
