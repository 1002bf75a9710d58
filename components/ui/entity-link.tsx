import Link from "next/link";
import type { ReactNode } from "react";

import { CELL_LINK_CLASSES, TEXT_LINK_CLASSES } from "@/components/ui/text-link";
import { entityHref, type EntityKind } from "@/lib/queries/insight-links";

/** A driver's, truck's, card's or station's name, linking to its page (lib/queries/insight-links). */
export function EntityLink({
  kind,
  id,
  children,
  inCell = false,
  label,
}: {
  kind: EntityKind;
  id: string;
  children: ReactNode;
  /** In a table cell: the text's own weight. */
  inCell?: boolean;
  /** The link's accessible name when the text alone is not enough ("Card ending in 4821"). */
  label?: string;
}) {
  return (
    <Link
      href={entityHref(kind, id)}
      prefetch={false}
      className={inCell ? CELL_LINK_CLASSES : TEXT_LINK_CLASSES}
      aria-label={label}
    >
      {children}
    </Link>
  );
}
