/**
 * The mask palette and the painted-pixel rule's constants (spec "Mask rules"), in a module
 * with no imports so the console's mask painter (browser) and the schemas share them with
 * mask analysis (server).
 */
export const MASK_PALETTE = ['#FF0000', '#CCFF00', '#00FF66', '#0066FF', '#CC00FF'] as const;
export type MaskColor = (typeof MASK_PALETTE)[number];

export const MASK_CHANNEL_TOLERANCE = 48;
export const MASK_MIN_ALPHA = 128; // 50 % of 255, rounded up
export const MASK_MIN_COVERAGE = 0.0001; // 0.01 %
export const MASK_MIN_LONG_SIDE = 512;
export const MASK_PROPORTION_TOLERANCE = 0.01;
