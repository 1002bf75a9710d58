/**
 * Bounds for waits that have no timeout of their own, so a hang (seen once in CI on a loaded machine: the pages part
 * sat idle for over ten minutes) ends as a named bench error instead of eating the CI's time limit.
 */
export class TimeLimitError extends Error {
  override readonly name = "TimeLimitError";
}

export async function withTimeLimit<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new TimeLimitError(`${what} did not finish within ${String(Math.round(ms / 1000))} s`));
    }, ms);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long one part may run: the smoke run's parts take seconds; a full part minutes (the sandbox part seeds 1M rows). */
export function partTimeLimitMs(options: { smoke: boolean; long: boolean }): number | null {
  if (options.long) return null;
  return options.smoke ? 5 * 60_000 : 45 * 60_000;
}
