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

/**
 * Who may read each reference list: the spec's one permission per list. A renders-only key that
 * sends an unknown `style` is told the valid ids in the error message (creations/create.ts).
 */
export const REFERENCE_READERS = {
  styles: ['decorations'],
  editMaterials: ['edits'],
  editMaterialCategories: ['edits'],
  /** The price list (GET /v1/prices): any key that can create something. */
  prices: ['renders', 'edits', 'decorations', 'upscales'],
} as const satisfies Record<string, readonly Permission[]>;

/** What each permission lets a key do, as the console's key dialog describes it. */
export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  renders: 'Create renders (POST /v1/renders).',
  edits: 'Create edits (POST /v1/edits) and list edit materials and their categories.',
  decorations: 'Create decorations (POST /v1/decorations) and list the styles (GET /v1/styles).',
  upscales: 'Create upscales (POST /v1/upscales).',
  generations_read: 'Read and list generations; cancel one together with the permission of its type.',
};
