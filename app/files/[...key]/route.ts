import { serveSignedFile } from '@/server/http/public-files';
import { publicFileRoute } from '@/server/http/public-files-route';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Signed, expiring file URLs of the local blob store (same handler as the launcher's server). */
export const GET = publicFileRoute('/files/', serveSignedFile);
export const HEAD = GET;
