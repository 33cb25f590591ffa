import { db } from '@/server/platform/db';
import { pageInput } from '@/server/platform/pages';
import { memberActor, type Member } from '@/server/capabilities/access/roles';
import { createEndpoint } from '@/server/capabilities/webhooks/create-endpoint';
import { getEndpoint, type EndpointScope } from '@/server/capabilities/webhooks/endpoints';
import { rotateSecret } from '@/server/capabilities/webhooks/rotate-secret';
import { deleteEndpoint, disableEndpoint, enableEndpoint } from '@/server/capabilities/webhooks/endpoint-status';
import { pageDeliveries } from '@/server/capabilities/webhooks/delivery-log';
import { resendDelivery } from '@/server/capabilities/webhooks/resend-delivery';
import { sendTestEvent } from '@/server/capabilities/webhooks/send-test-event';
import { listEndpointsWithRates } from '@/server/capabilities/webhooks/success-rate';
import { updateEndpoint } from '@/server/capabilities/webhooks/update-endpoint';
import { deliveryPayload } from '@/server/capabilities/webhooks/delivery-payload';
import { createWebhookEndpointInput, deliveryFiltersInput, deliveryInput, endpointInput, sendTestEventInput, updateWebhookEndpointInput } from '@/shared/webhooks/webhook-inputs';
import { consoleRouterBuilder as router, memberProcedure, role } from './console-init';

/** Endpoints are the organization's owners' and admins' (spec, roles); developers get 403. */
const manager = memberProcedure.use(role('owner', 'admin'));

/** The session's organization and mode: an endpoint or delivery of another one is 404. */
const scopeOf = (member: Member): EndpointScope => ({ organizationId: member.organizationId, mode: member.mode });

/** The console's webhook screens: the same services as the CLI, scoped by organization and mode. */
export const webhooksRouter = router({
  list: manager.query(async ({ ctx }) => ({ data: await listEndpointsWithRates(db(), scopeOf(ctx.member)) })),
  get: manager.input(endpointInput).query(({ ctx, input }) => getEndpoint(db(), scopeOf(ctx.member), input.endpointId)),
  create: manager
    .input(createWebhookEndpointInput)
    .mutation(({ ctx, input }) =>
      createEndpoint(db(), scopeOf(ctx.member), { mode: ctx.member.mode, url: input.url, events: input.events, ...(input.description ? { description: input.description } : {}) }, memberActor(ctx.member)),
    ),
  update: manager
    .input(updateWebhookEndpointInput)
    .mutation(({ ctx, input }) => updateEndpoint(db(), scopeOf(ctx.member), input.endpointId, { url: input.url, description: input.description, events: input.events }, memberActor(ctx.member))),
  rotate: manager.input(endpointInput).mutation(({ ctx, input }) => rotateSecret(db(), scopeOf(ctx.member), input.endpointId, memberActor(ctx.member))),
  disable: manager.input(endpointInput).mutation(({ ctx, input }) => disableEndpoint(db(), scopeOf(ctx.member), input.endpointId, memberActor(ctx.member))),
  enable: manager.input(endpointInput).mutation(({ ctx, input }) => enableEndpoint(db(), scopeOf(ctx.member), input.endpointId, memberActor(ctx.member))),
  delete: manager.input(endpointInput).mutation(({ ctx, input }) => deleteEndpoint(db(), scopeOf(ctx.member), input.endpointId, memberActor(ctx.member))),
  deliveries: manager
    .input(pageInput.extend(deliveryFiltersInput.shape))
    .query(({ ctx, input }) => pageDeliveries(db(), scopeOf(ctx.member), input.endpointId, input)),
  payload: manager.input(deliveryInput).query(({ ctx, input }) => deliveryPayload(db(), scopeOf(ctx.member), input.deliveryId)),
  resend: manager.input(deliveryInput).mutation(({ ctx, input }) => resendDelivery(db(), scopeOf(ctx.member), input.deliveryId)),
  sendTest: manager.input(sendTestEventInput).mutation(({ ctx, input }) => sendTestEvent(db(), scopeOf(ctx.member), input.endpointId, input.type)),
});
