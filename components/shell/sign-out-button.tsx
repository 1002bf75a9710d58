"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { signOut } from "@/lib/queries/session";

export function SignOutButton() {
  const queryClient = useQueryClient();
  const [isPending, setIsPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleClick() {
    setIsPending(true);
    setError(null);
    try {
      await signOut();
      queryClient.clear();
      // A full navigation, not the router: everything this page held in memory for the session goes with it, and Back
      // cannot show a cached dashboard page.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- deliberate, see above
      window.location.assign("/login?reason=signed-out");
    } catch (failure) {
      setError(
        failure instanceof Error ? `Signing out failed: ${failure.message}` : "Signing out failed. Please try again.",
      );
      setIsPending(false);
    }
  }

  return (
    <div className="relative">
      <Button
        variant="secondary"
        className="px-3"
        disabled={isPending}
        onClick={() => {
          void handleClick();
        }}
      >
        {isPending ? "Signing out…" : "Sign out"}
      </Button>
      {error === null ? null : (
        <p
          role="alert"
          className="absolute top-full right-0 z-10 mt-2 w-72 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 shadow-lg dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          {error}
        </p>
      )}
    </div>
  );
}
