import { serveSwatch } from '@/server/http/public-files';
import { publicFileRoute } from '@/server/http/public-files-route';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Swatch preview of an edit material, for the console's material picker (no key needed). */
export const GET = publicFileRoute('/swatches/', serveSwatch);
export const HEAD = GET;
