import { z } from 'zod';

/** Console roles and modes as data (zod-only: the browser's forms import it). The matrix is in roles.ts. */
export const ROLES = ['owner', 'admin', 'developer'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);
export const modeSchema = z.enum(['test', 'live']);
