/** Load generation with autocannon (in this process; the servers under test are separate processes). */
import autocannon from "autocannon";

export interface LoadResult {
  p50: number;
  p99: number;
  max: number;
  /** Mean requests per second over the run. */
  rps: number;
  requests: number;
  /** Non-2xx answers plus connection errors and timeouts. */
  failures: number;
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Seconds to run; or `amount` requests. */
  seconds?: number;
  amount?: number;
  /** Called before each request: the path (and query) to ask for instead of the URL's, e.g. to defeat a cache. */
  nextPath?: () => string;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    headers: options.headers ?? {},
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.seconds ?? 5 }),
    ...(options.nextPath
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                path: options.nextPath?.() ?? request.path,
              }),
            },
          ],
        }
      : {}),
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    rps: result.requests.average,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
