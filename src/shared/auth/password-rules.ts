/** The password rule's bounds (zod-only home: the browser's forms import it; argon2 lives in password.ts). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;
