import { addConfigCheck } from '@/server/platform/config';
import { checkEngineEnv } from '@/server/capabilities/engine/backends/settings';

/**
 * The capabilities' own cross-checks of the configuration, added to config() by every entry
 * point (the launcher, `roomtone worker`, the CLI) before it reads it: a bad
 * ENGINE_<OPERATION> is refused at start with a message naming the variable.
 */
export function addServiceConfigChecks(): void {
  addConfigCheck('engine backends', checkEngineEnv);
}
