import { handleUploadPut } from '@/server/http/upload-put';

// upload_url of create_upload with local storage (src/server/http/upload-put.ts).
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const PUT = handleUploadPut;
export const POST = handleUploadPut;
