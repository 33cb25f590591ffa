import { z } from 'zod';
import { BALANCE_EVENT_TYPES, GENERATION_EVENT_TYPES } from '@/shared/webhooks/event-types';

/**
 * Inputs of the console's webhook procedures, shared with the UI's forms (zod and zod-only
 * modules only: the browser bundles this file). The URL's own rules (https, port 443, public
 * host) are the service's (create-endpoint.ts), answered with param "url".
 */
export const webhookEventTypeSchema = z.enum([...GENERATION_EVENT_TYPES, ...BALANCE_EVENT_TYPES]);
export const webhookEndpointIdSchema = z.string().regex(/^we_[0-9A-Za-z]{1,64}$/, 'must be a webhook endpoint id (we_…)');
export const webhookDeliveryIdSchema = z.string().regex(/^dlv_[0-9A-Za-z]{1,64}$/, 'must be a webhook delivery id (dlv_…)');

export const createWebhookEndpointInput = z.object({
  url: z.string().trim().min(1, 'Enter the https URL of your receiver.').max(2048, 'must have at most 2048 characters'),
  events: z.array(webhookEventTypeSchema).min(1, 'Follow at least one event type.').max(6),
  description: z.string().trim().max(500, 'must have at most 500 characters').optional(),
});
export const endpointInput = z.object({ endpointId: webhookEndpointIdSchema });
/** Edit: the fields given change (an empty description clears it). */
export const updateWebhookEndpointInput = endpointInput.extend({
  url: createWebhookEndpointInput.shape.url.optional(),
  events: createWebhookEndpointInput.shape.events.optional(),
  description: z.string().trim().max(500, 'must have at most 500 characters').optional(),
});
export const deliveryInput = z.object({ deliveryId: webhookDeliveryIdSchema });
export const sendTestEventInput = z.object({ endpointId: webhookEndpointIdSchema, type: webhookEventTypeSchema });
export const deliveryFiltersInput = z.object({ endpointId: webhookEndpointIdSchema, failedOnly: z.boolean().optional() });
