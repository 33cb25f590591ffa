import { apiReferencePage } from '@/server/http/api-reference';

// The API reference (src/server/http/api-reference.ts): a page of its own, outside the console layout.
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function GET(): Response {
  return apiReferencePage();
}
