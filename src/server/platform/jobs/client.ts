import { config } from '@/server/platform/config';
import { inngestProvider } from './providers/inngest-provider';
import { pgBossProvider } from './providers/pgboss';
import type { JobProvider } from './providers/provider';

/**
 * The job provider of this process, chosen from JOBS_PROVIDER: capabilities call
 * `jobs().trigger(event)` (with the event builders declared beside their jobs, `declareJob`)
 * and never know which provider runs the job.
 */
export function jobs(): JobProvider {
  return config().JOBS_PROVIDER === 'inngest' ? inngestProvider : pgBossProvider;
}
