/**
 * A delivery worker as a separate process, for the "killed mid-delivery" test: delivers what
 * is due at ROOMTONE_TEST_NOW (the test's clock), then exits. The test kills it before that.
 */
import { clock } from '@/server/platform/clock';
import { deliverDue } from '@/server/capabilities/webhooks/webhook-worker';
import { setEnv } from '@/server/platform/config';

clock.set(new Date(Number(process.env.ROOMTONE_TEST_NOW)));
setEnv('DEV_ALLOW_LOOPBACK_URLS', 'true');
void deliverDue().then(() => process.exit(0));
