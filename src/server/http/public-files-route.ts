import { newId } from '@/server/platform/ids';
import { apiErrorFromUnknown } from '@/server/trpc/errors';
import type { FileReply } from './public-files';

type Handler = (method: string, rest: string, search: URLSearchParams) => Promise<FileReply>;

/** An App Router handler (plain `next start`) around one of the public file doors. */
export function publicFileRoute(prefix: string, handler: Handler): (req: Request) => Promise<Response> {
  return async (req) => {
    const requestId = newId('req');
    const url = new URL(req.url);
    try {
      const reply = await handler(req.method, url.pathname.slice(prefix.length), url.searchParams);
      return new Response(req.method === 'HEAD' ? null : reply.body, { status: reply.status, headers: { ...reply.headers, 'request-id': requestId } });
    } catch (error) {
      const apiError = apiErrorFromUnknown(error, { requestId, route: `${req.method} ${prefix}` });
      return Response.json(apiError.toBody(), { status: apiError.status, headers: { ...apiError.headers, 'request-id': requestId } });
    }
  };
}
