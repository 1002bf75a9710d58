"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useState } from "react";

import { createQueryClient } from "@/lib/queries/query-client";
import { RateLimitState } from "@/lib/queries/rate-limit";

const RateLimitContext = createContext<RateLimitState | null>(null);

/** The page's shared "the upstream asked us to wait" state (see lib/queries/rate-limit). */
export function useRateLimitState(): RateLimitState {
  const state = useContext(RateLimitContext);
  if (state === null) throw new Error("useRateLimitState needs <Providers>");
  return state;
}

/** One query client per page load (never shared between requests or users); defaults in lib/queries/query-client. */
export function Providers({ children }: { children: ReactNode }) {
  const [rateLimit] = useState(() => new RateLimitState());
  const [queryClient] = useState(() => createQueryClient(rateLimit));
  return (
    <RateLimitContext.Provider value={rateLimit}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </RateLimitContext.Provider>
  );
}
