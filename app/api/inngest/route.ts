import { serveInngest } from '@/server/jobs/providers/inngest';

// Inngest's door (JOBS_PROVIDER=inngest): introspection, registration, signed step execution.
// The production server answers /api/inngest with the same handler before Next.js.
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = serveInngest;
export const POST = serveInngest;
export const PUT = serveInngest;
