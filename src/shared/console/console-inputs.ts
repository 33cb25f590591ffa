import { z } from 'zod';
import { permissionSchema } from '@/shared/keys/permissions';
import { roleSchema } from '@/shared/members/role-names';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@/shared/auth/password-rules';
import { AUDIT_ACTIONS } from '@/shared/audit/actions';
import { organizationNameSchema } from '@/shared/orgs/organization-name';

/**
 * The console's input schemas, shared by the tRPC procedures (console-router.ts) and the UI's
 * forms (react-hook-form + zodResolver), so the browser and the server validate alike. Only zod
 * and zod-only modules here: this file is bundled into the browser. Inputs of member procedures
 * are z.object, not strict: tRPC hands each chained input parser the whole input, which also
 * holds { organizationId, mode }.
 */
// Messages are sentences addressed to the person filling the form, as every console form says
// them ("Name the organization.", "Give the key a name."); the API prefixes the parameter.
const email = z.email('Enter an e-mail address such as name@example.com.').max(320, 'An e-mail address has at most 320 characters.');
const password = z.string().min(1, 'Enter your password.').max(PASSWORD_MAX_LENGTH, `A password has at most ${PASSWORD_MAX_LENGTH} characters.`);
const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `A password has at most ${PASSWORD_MAX_LENGTH} characters.`);
export const linkTokenSchema = z.string().min(10).max(200).regex(/^[0-9A-Za-z]+$/, 'is not a valid link token');
export const unixSecondsSchema = z.number().int().min(0).max(32_503_680_000);
export const requestIdSchema = z.string().regex(/^req_[0-9A-Za-z]{1,64}$/, 'must be a request id (req_…)');
export const generationIdSchema = z.string().regex(/^gen_[0-9A-Za-z]{1,64}$/, 'must be a generation id (gen_…)');
/** A generations list waiting on its in-progress rows: answered when one ends, or after waitMs. */
export const waitForGenerationsInput = z.object({ ids: z.array(generationIdSchema).min(1).max(25), waitMs: z.number().int().min(0).max(10_000) });
export const userIdSchema = z.string().regex(/^usr_[0-9A-Za-z]{1,64}$/, 'must be a user id (usr_…)');

export const signInInput = z.strictObject({ email, password });
export const signUpInput = z.strictObject({
  email,
  password: newPassword,
  name: z.string().max(100, 'Keep your name to 100 characters.').optional(),
  organizationName: organizationNameSchema.optional(),
  invitationToken: linkTokenSchema.optional(),
});
export const requestPasswordResetInput = z.strictObject({ email });
export const resetPasswordInput = z.strictObject({ token: linkTokenSchema, password: newPassword });
export const verifyEmailInput = z.strictObject({ token: linkTokenSchema, password });
export const changePasswordInput = z.strictObject({ currentPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(), newPassword });
const keyName = z.string().trim().min(1, 'Give the key a name.').max(100);
/** Key lifetimes the console offers (days); none: the key never expires. */
export const KEY_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const createKeyInput = z.object({
  name: keyName,
  permissions: z.array(permissionSchema).min(1, 'Choose at least one permission.').max(5),
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});
export const renameKeyInput = z.object({ keyId: z.string().max(100), name: keyName });
/** A key's new lifetime from now (one of the offered ones, or any 1 to 3650 days); null: it never expires. */
export const keyExpiryInput = z.object({ keyId: z.string().max(100), expiresInDays: z.number().int().min(1).max(3650).nullable() });
/** How long the secret a roll replaces keeps working (seconds): at once, 1 hour, 24 hours, 3 days, 7 days. */
export const KEY_ROLL_OVERLAPS = [0, 3600, 86_400, 259_200, 604_800] as const;
export const rollKeyInput = z.object({
  keyId: z.string().max(100),
  overlapSeconds: z.number().int().refine((v) => (KEY_ROLL_OVERLAPS as readonly number[]).includes(v), 'Choose how long the old secret keeps working: now, 1 hour, 24 hours, 3 days or 7 days.'),
});
/** A key's fences (server/keys/fences.ts): null clears a limit; addresses are checked on the server. */
export const keyFencesInput = z.object({
  keyId: z.string().max(100),
  allowedIps: z.array(z.string().max(64)).max(50, 'At most 50 addresses or networks per key.'),
  requestsPerMinute: z.number().int().min(1).nullable(),
  monthlySpendCapCents: z.number().int().min(0).nullable(),
});
export const inviteInput = z.object({ email, role: roleSchema });
export const renameInput = z.object({ name: organizationNameSchema });
export const createOrganizationInput = z.object({ name: organizationNameSchema });
export const invitationIdSchema = z.string().regex(/^inv_[0-9A-Za-z]{1,64}$/, 'must be an invitation id (inv_…)');
export const logFiltersInput = z.object({
  statusClass: z.enum(['2xx', '3xx', '4xx', '5xx', 'errors']).optional(),
  errorCode: z.string().max(64).optional(),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']).optional(),
  path: z.string().max(300).optional(),
  apiKeyId: z.string().max(100).optional(),
  from: unixSecondsSchema.optional(),
  to: unixSecondsSchema.optional(),
  requestId: requestIdSchema.optional(),
});

export { addCreditForm, autoRechargeForm, autoRechargeInput, cardSetupIdSchema, creditPurchaseInput, purchaseIdSchema } from '@/shared/billing/purchase-inputs';
/** The sign-in's second step: the 6 digits of the authenticator app, or a recovery code (xxxx-xxxx-xxxx). */
export const secondFactorInput = z.strictObject({ code: z.string().trim().min(6, 'Enter the 6-digit code or a recovery code.').max(40) });
/** Enrolment and new recovery codes take a code of the app itself. */
export const totpCodeInput = z.strictObject({ code: z.string().trim().regex(/^\d{6}$/, 'Enter the 6 digits your authenticator app shows.') });
export const sessionIdSchema = z.string().regex(/^ses_[0-9A-Za-z]{1,64}$/, 'must be a session id (ses_…)');
export const requireTwoFactorInput = z.object({ required: z.boolean() });
export const auditFiltersInput = z.object({
  actor: z.string().trim().max(320).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  from: unixSecondsSchema.optional(),
  to: unixSecondsSchema.optional(),
});
