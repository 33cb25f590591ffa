import { z } from 'zod';
import { permissionSchema } from '@/server/keys/permissions';

/**
 * The console's input schemas, shared by the tRPC procedures (console-router.ts) and the UI's
 * forms (react-hook-form + zodResolver), so the browser and the server validate alike. Only zod
 * and zod-only modules here: this file is bundled into the browser.
 */
// TODO(console-server): import from zod-only homes (members/roles.ts and auth/password.ts pull in db/argon2).
const ROLE_NAMES = ['owner', 'admin', 'developer'] as const;
const PASSWORD_MIN = 10;
const PASSWORD_MAX = 200;

const email = z.email().max(320);
const password = z.string().min(1).max(PASSWORD_MAX);
const newPassword = z.string().min(PASSWORD_MIN, `must have at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX);
const token = z.string().min(10).max(200).regex(/^[0-9A-Za-z]+$/, 'is not a valid link token');
const unixSeconds = z.number().int().min(0).max(32_503_680_000);
export const requestIdSchema = z.string().regex(/^req_[0-9A-Za-z]{1,64}$/, 'must be a request id (req_…)');

export const signInInput = z.strictObject({ email, password });
export const signUpInput = z.strictObject({
  email,
  password: newPassword,
  name: z.string().max(100).optional(),
  organizationName: z.string().max(100).optional(),
  invitationToken: token.optional(),
});
export const requestPasswordResetInput = z.strictObject({ email });
export const resetPasswordInput = z.strictObject({ token, password: newPassword });
export const changePasswordInput = z.strictObject({ currentPassword: z.string().max(PASSWORD_MAX).optional(), newPassword });
export const createKeyInput = z.strictObject({ name: z.string().trim().min(1).max(100), permissions: z.array(permissionSchema).min(1).max(5) });
export const inviteInput = z.strictObject({ email, role: z.enum(ROLE_NAMES) });
export const renameInput = z.strictObject({ name: z.string().trim().min(1).max(100) });
export const logFiltersInput = z.strictObject({
  statusClass: z.enum(['2xx', '3xx', '4xx', '5xx', 'errors']).optional(),
  errorCode: z.string().max(64).optional(),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']).optional(),
  path: z.string().max(300).optional(),
  apiKeyId: z.string().max(100).optional(),
  from: unixSeconds.optional(),
  to: unixSeconds.optional(),
  requestId: requestIdSchema.optional(),
});
