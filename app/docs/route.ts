import { service } from '@/console-server/server';

// The API reference (src/server/doors/http/api-reference.ts): a page of its own, outside the console layout.
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export async function GET(): Promise<Response> {
  return (await service()).apiReferencePage();
}
