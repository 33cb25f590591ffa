import { service } from '@/console-server/server';

// The renderer's bundle, served by the app itself (no CDN).
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export async function GET(): Promise<Response> {
  return (await service()).apiReferenceScript();
}
