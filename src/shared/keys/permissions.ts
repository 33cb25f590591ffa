import { z } from 'zod';

export const PERMISSIONS = ['renders', 'edits', 'decorations', 'upscales', 'generations_read'] as const;
export type Permission = (typeof PERMISSIONS)[number];
export const permissionSchema = z.enum(PERMISSIONS);

/** The permission a creation route needs, by generation type (also needed to cancel one). */
export const PERMISSION_FOR_TYPE = {
  render: 'renders',
  edit: 'edits',
  decoration: 'decorations',
  upscale: 'upscales',
} as const satisfies Record<string, Permission>;
