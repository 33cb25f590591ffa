/** A generation's status as people read it (never the API's raw word, e.g. in_progress). */
export const GENERATION_STATUS_LABELS: Record<string, string> = { in_progress: 'In progress', succeeded: 'Succeeded', failed: 'Failed', canceled: 'Canceled' };

export function generationStatusLabel(status: string): string {
  return GENERATION_STATUS_LABELS[status] ?? status.replace(/_/g, ' ');
}
