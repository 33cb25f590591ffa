import { createUpload } from '@/server/uploads/uploads';
import { listEditMaterialCategories, listEditMaterials, listStyles } from '@/server/reference/reference';
import { callerFromMember, quotePlayground, runPlaygroundCreation } from '@/server/playground/playground';
import { materialSearchInput, playgroundCreateInput, playgroundQuoteInput } from '@/server/playground/playground-inputs';
import { consoleRouterBuilder as router, memberProcedure, role } from './console-init';

const anyMember = memberProcedure.use(role('owner', 'admin', 'developer'));

/**
 * The playground's procedures (console-router.ts mounts them as `playground`): creations through
 * the same service as /v1, the price and quota before running, uploads through the same intake
 * as create_upload (the page PUTs the file to upload_url), and the reference lists of /v1.
 */
export const playgroundRouter = router({
  create: anyMember.input(playgroundCreateInput).mutation(({ ctx, input }) => runPlaygroundCreation(ctx.member, input, ctx.ip)),
  quote: anyMember.input(playgroundQuoteInput).query(({ ctx, input }) => quotePlayground(ctx.member, input)),
  createUpload: anyMember.mutation(({ ctx }) => createUpload(callerFromMember(ctx.member))),
  styles: anyMember.query(() => listStyles()),
  materialCategories: anyMember.query(() => listEditMaterialCategories()),
  materials: anyMember.input(materialSearchInput).query(async ({ input }) => {
    const page = await listEditMaterials({ limit: 48, after: input.after, category: input.category || undefined, search: input.search || undefined });
    return { data: page.data, hasMore: page.hasMore };
  }),
});
