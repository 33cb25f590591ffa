import type { InngestFunction } from 'inngest';
import { serve } from 'inngest/next';
import { config } from '@/server/platform/config';
import { DomainError } from '@/server/platform/errors';
import { inngestClient } from '@/server/platform/jobs/providers/inngest-client';
import { INNGEST_SERVE_PATH } from '@/server/platform/jobs/providers/inngest-app';
import { inngestFunction } from '@/server/platform/jobs/providers/inngest-functions';
import type { JobDefinition } from '@/server/platform/jobs/job';
import { JOB_DEFINITIONS } from './definitions';

/**
 * Every job definition as an Inngest function, served at /api/inngest by the SDK's Next.js
 * handler (`inngest/next`; signing key verified by the SDK). The route is in the route table
 * (src/server/doors/http/routes.ts), which loads this module at its first call.
 */

let served: { functions: InngestFunction.Any[]; handler: ReturnType<typeof serve> } | undefined;

function provider() {
  if (!served) {
    const c = config();
    const client = inngestClient();
    const functions = JOB_DEFINITIONS.map((d) => inngestFunction(client, d));
    const handler = serve({ client, functions, servePath: INNGEST_SERVE_PATH, serveOrigin: c.publicBaseUrl });
    served = { functions, handler };
  }
  return served;
}

/** The served function of a definition (tests run it with @inngest/test's engine). */
export function servedInngestFunction(definition: Pick<JobDefinition, 'id'>): InngestFunction.Any {
  const found = provider().functions.find((f) => f.id() === definition.id);
  if (!found) throw new Error(`no Inngest function for ${definition.id}`);
  return found;
}

/** The /api/inngest door: GET introspection, PUT registration, POST step execution (signed). */
export async function serveInngest(request: Request): Promise<Response> {
  if (config().JOBS_PROVIDER !== 'inngest') throw new DomainError('resource_not_found', 'Jobs run on pg-boss here (JOBS_PROVIDER=pgboss): there is no Inngest endpoint.');
  const { handler } = provider();
  const method = request.method === 'PUT' ? handler.PUT : request.method === 'POST' ? handler.POST : handler.GET;
  return method(request as Parameters<typeof handler.GET>[0], undefined);
}

