/** The package version, sent in the User-Agent (kept equal to package.json by a test). */
export const VERSION = '0.1.0';
