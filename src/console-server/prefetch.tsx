import type * as React from 'react';
import { dehydrate, HydrationBoundary, QueryClient, type FetchQueryOptions } from '@tanstack/react-query';
import { createTRPCOptionsProxy, type TRPCOptionsProxy } from '@trpc/tanstack-react-query';
import type { ConsoleRouter } from '@/server/doors/trpc/console-router';
import { service } from './server';
import { sessionUser } from './session';

/**
 * Server-rendered data for a console page: runs the given tRPC queries on the server with the
 * request's session (the same procedures, so the same auth boundary and scoping as /api/trpc)
 * and hands their results to the client's TanStack Query cache, so the shell and the screen's
 * first query render in the HTML instead of waiting for hydration and two round trips. A
 * refused or failing query is simply not prefetched: the client asks again and shows its
 * own error state. Without a session nothing runs (the console layout has already sent the
 * visitor to sign-in).
 */
export async function Prefetch({
  queries,
  children,
}: {
  queries: (trpc: TRPCOptionsProxy<ConsoleRouter>) => FetchQueryOptions<never, never, never, never>[] | readonly unknown[];
  children: React.ReactNode;
}) {
  const user = await sessionUser();
  const queryClient = new QueryClient();
  if (user) {
    const trpc = createTRPCOptionsProxy({ router: (await service()).consoleRouter, ctx: { user, ip: null }, queryClient });
    await Promise.all((queries(trpc) as FetchQueryOptions[]).map((options) => queryClient.prefetchQuery(options)));
  }
  return <HydrationBoundary state={dehydrate(queryClient)}>{children}</HydrationBoundary>;
}
