import type { Route } from "next";
import Link from "next/link";

import { PageHeader } from "@/components/ui/page-header";
import { TEXT_LINK_CLASSES } from "@/components/ui/text-link";
import type { DrilldownDimension } from "@/lib/model/insight-drilldowns";

import { DIMENSIONS } from "./dimensions";

/** The 404 page of `/drivers/[id]`, `/trucks/[id]`, `/cards/[last4]` (lib/bff/drilldown-page.ts decides it). */
export function DrilldownNotFound({ dimension }: { dimension: Exclude<DrilldownDimension, "station"> }) {
  const words = DIMENSIONS[dimension];
  const what = dimension === "card" ? "card ending in these four digits" : `${words.one} with this id`;
  return (
    <div>
      <PageHeader title={`${words.heading} not found`}>
        No {what} has a purchase in your transactions. The link may be mistyped, or it may belong to another customer.
      </PageHeader>
      <Link href={`/${dimension}s` as Route} className={TEXT_LINK_CLASSES}>
        <span aria-hidden="true">← </span>All {words.plural.toLowerCase()}
      </Link>
    </div>
  );
}
