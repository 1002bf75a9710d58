import type { Metadata } from "next";

import { NotFoundMessage } from "@/components/ui/not-found-message";

export const metadata: Metadata = {
  title: "Page not found",
};

// A dashboard page that called notFound() (an unknown station or transaction id): the message inside the shell,
// whose <main> it already is in (the root not-found page brings its own).
export default function DashboardNotFound() {
  return (
    <div className="mx-auto max-w-xl py-10">
      <NotFoundMessage />
    </div>
  );
}
