import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { keyKnown } from "@/lib/mirror";
import type { DrilldownDimension } from "@/lib/model/insight-drilldowns";

import { withinPageWait } from "../http/page-lookup";
import { readSession } from "../platform/session";
import { mirrorFor } from "../sync";
import { drilldownKey, historyComplete } from "./drilldown-service";

type PageDimension = Exclude<DrilldownDimension, "station">;

const TITLE_OF: Record<PageDimension, (name: string) => string> = {
  driver: (name) => name,
  truck: (name) => `Truck ${name}`,
  card: (name) => `Card ${name}`,
};
const UNNAMED: Record<PageDimension, string> = { driver: "Driver", truck: "Truck", card: "Card" };

/** What the server knows of a drill-down page's key: its name and detail (a driver's truck, a truck's driver). */
export interface KnownKey {
  name: string;
  detail: string | null;
}

/**
 * A drill-down page's key (`/drivers/[id]`, `/trucks/[id]`, `/cards/[last4]`), looked up on the server before the page
 * streams: a malformed key, or one the customer's whole history has no purchase of, is an HTTP 404 with the not-found
 * page (as `/transactions/[id]` is), never a 200 that shows "Driver not-a-driver" and zeros; a known key gives the
 * page its title (the driver's name) and its first paint the header it keeps once the figures load (issue 26: no
 * layout shift). While the history is still loading, or without a session or a mirror, the page renders and its
 * query says why (as GET /api/drivers/[id] does). Cached per request: the title and the page share it.
 */
export const drilldownPageKey = cache(async (dimension: PageDimension, raw: string): Promise<KnownKey | undefined> => {
  try {
    drilldownKey(dimension, raw);
  } catch {
    notFound();
  }
  const lookup = (async () => {
    const result = await readSession({ readOnly: true });
    if ("problem" in result) return undefined;
    const mirror = await mirrorFor(result.session);
    if (mirror === null) return undefined;
    const known = await keyKnown(mirror.store, mirror.customerId, dimension, raw);
    if (known === null) return historyComplete(mirror.state) ? null : undefined;
    return { name: known.name, detail: known.detail };
  })().catch(() => undefined);
  const known = await withinPageWait(lookup);
  if (known === null) notFound();
  return known;
});

/** The page's title: the key's name in words ("Truck T-191"), or the dimension alone when the key is not known yet. */
export const drilldownPageTitle = cache(async (dimension: PageDimension, raw: string): Promise<string> => {
  const known = await drilldownPageKey(dimension, raw);
  return known === undefined ? UNNAMED[dimension] : TITLE_OF[dimension](known.name);
});
