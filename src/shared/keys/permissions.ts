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
 * Who may read each reference list: every key whose creations use it. The spec names one
 * permission per list; a render body takes an optional `style` too, so a renders-only key may
 * list styles (docs/api.md records the choice). Materials serve edit layers only.
 */
export const REFERENCE_READERS = {
  styles: ['decorations', 'renders'],
  editMaterials: ['edits'],
  editMaterialCategories: ['edits'],
  /** The price list (GET /v1/prices): any key that can create something. */
  prices: ['renders', 'edits', 'decorations', 'upscales'],
} as const satisfies Record<string, readonly Permission[]>;

/** What each permission lets a key do, as the console's key dialog describes it. */
export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  renders: 'Create renders (POST /v1/renders) and list the styles they take (GET /v1/styles).',
  edits: 'Create edits (POST /v1/edits) and list edit materials and their categories.',
  decorations: 'Create decorations (POST /v1/decorations) and list styles.',
  upscales: 'Create upscales (POST /v1/upscales).',
  generations_read: 'Read and list generations; cancel one together with the permission of its type.',
};
