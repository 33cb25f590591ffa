import { apiReferenceScript } from '@/server/http/api-reference';

// The renderer's bundle, served by the app itself (no CDN).
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function GET(): Response {
  return apiReferenceScript();
}
