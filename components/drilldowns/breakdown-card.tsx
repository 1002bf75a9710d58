"use client";

import { useMemo } from "react";

import { Card } from "@/components/ui/card";
import type { DrilldownDetailReply, DrilldownDimension } from "@/lib/model/insight-drilldowns";

import type { WithinKey } from "./dimensions";
import { FiguresTable } from "./figures-table";

/**
 * A detail page's stations (of a driver, truck or card) or drivers (of a station): each row links to the rows behind
 * it — the page's key and the row's key together, on the covered local dates — so its figure ties out in the list.
 */
export function BreakdownCard(props: {
  dimension: DrilldownDimension;
  data: DrilldownDetailReply;
  label: string;
  periodQuery: string;
}) {
  const { dimension, data, label, periodQuery } = props;
  const within = useMemo((): WithinKey => ({ dimension, key: data.key }), [dimension, data.key]);
  const by = data.breakdown.dimension;
  return (
    <Card title={by === "station" ? "Its stations" : "Drivers at this station"}>
      <FiguresTable
        dimension={by}
        rows={data.breakdown.rows}
        periodQuery={periodQuery}
        range={data.coverage.covered}
        within={within}
        caption={`${by === "station" ? "Stations" : "Drivers"} by spend, ${label}. Sort by any column.`}
        testId="breakdown-table"
      />
    </Card>
  );
}
