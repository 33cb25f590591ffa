'use client';
import * as React from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpLink, splitLink, TRPCClientError } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { ConsoleRouter } from '@/server/doors/trpc/console-router';

/** The console's typed data layer: `useTRPC()` gives query/mutation options for every procedure. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<ConsoleRouter>();

/** What each procedure returns (screens name their rows from it, never restating the server's views). */
export type ConsoleOutputs = inferRouterOutputs<ConsoleRouter>;

/** HTTP status of a tRPC error (the server keeps /v1's status under data.httpStatus). */
export function errorStatus(error: unknown): number | undefined {
  if (error instanceof TRPCClientError) {
    const data = (error as TRPCClientError<ConsoleRouter>).data as { httpStatus?: number } | undefined;
    return data?.httpStatus;
  }
  return undefined;
}

/** The API's refusal body of a tRPC error ({ code, message, param }), to show an error next to the field it names. */
export function apiErrorOf(error: unknown): { code: string; message: string; param?: string } | undefined {
  if (error instanceof TRPCClientError) {
    return ((error as TRPCClientError<ConsoleRouter>).data as { apiError?: { code: string; message: string; param?: string } } | undefined)?.apiError;
  }
  return undefined;
}

/** Procedures that may hold their request open until a generation ends (never batched with others). */
const LONG_READS = new Set(['playground.create', 'playground.follow', 'generations.waitForEnd']);

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // Refusals (4xx) are answers, not outages: do not retry them.
        retry: (count, error) => {
          const status = errorStatus(error);
          return (status === undefined || status >= 500) && count < 2;
        },
      },
    },
  });
}

export function TrpcQueryProvider({ children }: { children: React.ReactNode }) {
  const [queryClient] = React.useState(makeQueryClient);
  const [trpcClient] = React.useState(() =>
    createTRPCClient<ConsoleRouter>({
      links: [
        // A request that waits on the server for a generation's end goes alone: in a batch it would hold the others' answers.
        splitLink({ condition: (op) => LONG_READS.has(op.path), true: httpLink({ url: '/api/trpc' }), false: httpBatchLink({ url: '/api/trpc' }) }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
