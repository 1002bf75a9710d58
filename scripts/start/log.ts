/** The launcher's own lines (prefixed, so they stand out among the children's output) and its exit codes. */
export const EXIT_FAILURE = 1;
export const EXIT_BAD_CONFIG = 2;

export function log(message: string): void {
  console.log(`[start] ${message}`);
}

export function logError(message: string): void {
  console.error(`[start] ${message}`);
}
