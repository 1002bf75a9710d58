import { queryOptions, useQuery } from "@tanstack/react-query";

import type { SessionInfo, SignInResult } from "@/lib/model";

import { BffRequestError, CSRF_HEADERS, fetchJson, requestBff } from "./fetch-json";

interface KeyPair {
  keyId: string;
  secret: string;
}

const SESSION_WRITE_HEADERS = { "Content-Type": "application/json", ...CSRF_HEADERS } as const;

const sessionQueryOptions = queryOptions({
  queryKey: ["session"] as const,
  queryFn: ({ signal }) => fetchJson<SessionInfo>("/api/session", { signal }),
});

export function useSession() {
  return useQuery(sessionQueryOptions);
}

/** `{ demo: true }` signs in with the sandbox's demo key, which only the server holds (offered on /login when set). */
export type SignInRequest = KeyPair | { demo: true };

/** Logs in. A 401 here means a wrong or revoked key pair, so it is thrown, not redirected. */
export function signIn(request: SignInRequest): Promise<SignInResult> {
  return fetchJson<SignInResult>(
    "/api/session",
    { method: "POST", headers: SESSION_WRITE_HEADERS, body: JSON.stringify(request) },
    { redirectOnUnauthorized: false },
  );
}

/** Logs out, server side too. A 401 means the session had already ended: that is a success for the user. */
export async function signOut(): Promise<void> {
  try {
    await requestBff(
      "/api/session",
      { method: "DELETE", headers: SESSION_WRITE_HEADERS },
      { redirectOnUnauthorized: false },
    );
  } catch (error) {
    if (error instanceof BffRequestError && error.status === 401) return;
    throw error;
  }
}
