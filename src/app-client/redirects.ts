/** Only same-site paths are followed after sign-in (no open redirect through `callbackUrl`). */
export function safeCallback(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : '/';
}
