import { z } from 'zod';
import { createUpload } from '@/server/capabilities/uploads/uploads';
import { apiErrorFromZodIssues } from '@/server/doors/errors';
import type { TrpcContext } from '@/server/doors/trpc/context';
import type { ToolOutcome } from './tool';

/**
 * create_upload takes no arguments: the format is recognized from the bytes at PUT (and again
 * at use), never from a declared type or a file name, so there is nothing to declare.
 */
export const createUploadArguments = z.strictObject({});

/** What create_upload returns (ApiUpload of uploads.ts), for the tool's outputSchema. */
export const uploadOutput = z.object({
  object: z.literal('upload'),
  id: z.string().meta({ description: 'file_…: pass it as image, mask or layers[].element.' }),
  upload_url: z.string(),
  upload_url_expires_at: z.number().int(),
  max_bytes: z.number().int(),
  expires_at: z.number().int(),
});

export async function createUploadTool(args: Record<string, unknown>, ctx: TrpcContext): Promise<ToolOutcome> {
  const parsed = createUploadArguments.safeParse(args);
  if (!parsed.success) throw apiErrorFromZodIssues(parsed.error.issues);
  if (!ctx.caller) throw new Error('create_upload without a caller');
  return { body: await createUpload(ctx.caller) };
}
