import "server-only";

import { createHash, timingSafeEqual } from "node:crypto";

import { type BffConfig, getConfig } from "../platform/config";

/**
 * Whether a request may use the test-only routes (app/api/test-hooks/**). The tests run the production build — what
 * ships is what is tested — so the routes are in every build, and what keeps them out of a real deployment is this:
 * - they answer 404 unless BFF_TEST_HOOKS holds a token (≥ 16 characters) and the request sends it in
 *   X-Test-Hooks-Token, compared in constant time;
 * - the configuration refuses BFF_TEST_HOOKS unless the upstream is the sandbox (SANDBOX=1 and a loopback address,
 *   never the address alone), and this check repeats that here, so no deployment that reaches a real provider can ever have them, whatever NODE_ENV says.
 */
export function testHooksAllowed(
  request: Request,
  config: Pick<BffConfig, "testHooksToken" | "upstream"> = getConfig(),
): boolean {
  const token = config.testHooksToken;
  if (token === undefined || !config.upstream.isSandbox) return false;
  return sameToken(request.headers.get("x-test-hooks-token"), token);
}

/**
 * Constant-time comparison of a presented token with the expected one: both are hashed to equal-length digests first,
 * so the time taken says nothing about how much of the token matched, nor about its length.
 */
export function sameToken(given: string | null, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  const equal = timingSafeEqual(digest(given ?? ""), digest(expected));
  return equal && given !== null;
}
