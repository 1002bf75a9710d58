import type { ExpressionBuilder, Kysely, Transaction as KyselyTransaction } from "kysely";

import type { TransactionStatus } from "@/lib/model";

import type { MirrorDatabase } from "./schema";

/**
 * The types several of the mirror's modules share, in a module that imports none of them. The store (./store.ts) and
 * the migrations (./migrations.ts) import the table modules (catalog, rollups, comparisons, …), so a type those
 * modules need lives here rather than in store.ts or migrations.ts: an import back would close a cycle
 * (scripts/lint/import-cycles.test.ts keeps lib/mirror and lib/insights free of them).
 */

export type MirrorDialect = "sqlite" | "postgres";

/** The database or one transaction of it: what the table modules read and write through. */
export type Db = Kysely<MirrorDatabase> | KyselyTransaction<MirrorDatabase>;

/** The expression builder of a query over the purchases (./filter's whereOf, ./local-dates' localDayWhere). */
export type Eb = ExpressionBuilder<MirrorDatabase, "mirror_transactions">;

/**
 * What a module below the store uses of it (MirrorStore implements it): its database and dialect, and a transaction.
 * Such a module (./catalog, ./fill-history) names this instead of the class, which imports it.
 */
export interface StoreHandle {
  readonly db: Kysely<MirrorDatabase>;
  readonly dialect: MirrorDialect;
  transaction<T>(fn: (trx: KyselyTransaction<MirrorDatabase>) => Promise<T>): Promise<T>;
}

/** A range of instants, [fromMs, toMs); either end open. */
export interface InstantRange {
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

export type StatusCounts = Record<TransactionStatus, number>;

/** Where the sync stands for one customer. Instants are epoch ms. */
export interface SyncState {
  customerId: string;
  newestAtMs: number | null;
  coverageFromMs: number | null;
  backfill: {
    toDay: string | null;
    nextPage: number | null;
    expected: number | null;
    doneRows: number;
    complete: boolean;
  };
  lastHeadSyncMs: number | null;
  lastVerificationMs: number | null;
  lastVerification: unknown;
  lastError: string | null;
}

/** The local-day rollup's dimensions (./local-rollups.ts). */
export type LocalDimension = "driver" | "truck" | "card" | "station" | "state";

/** One group's change (a key-day × product × status): what the local-day rollup and its blocks (./local-blocks.ts) add. */
export interface LocalDelta {
  dimension: LocalDimension;
  day: number;
  key: string;
  product: string;
  status: string;
  n: number;
  g: number;
  a: number;
  dg: number;
  da: number;
  /** The newest instant among the arriving rows (0 when none arrive). */
  lastPlus: number;
  /** Instants of rows that left and did not come back in this group (the newest may have gone with them). */
  gone: Set<number>;
}

/** One price record of the catalog (./catalog.ts): in force from `updatedMs` until the station's next record. */
export interface PriceRecord {
  updatedMs: number;
  priceMilli: number;
  /** The walk that saw this price first (epoch ms); absent in records made by hand for the day-based readers. */
  seenMs?: number;
}

export interface CatalogStation {
  id: string;
  name: string;
  brand: string;
  address: string;
  city: string;
  state: string;
  lat: number;
  lng: number;
  /** Listed by the latest walk (today's catalog); false for a station a later walk no longer listed. */
  current: boolean;
  /** The latest walk that listed the station (epoch ms): its latest price was observed until then. */
  lastSeenMs: number;
}

/** What the mirror knows of a customer's catalog: its stations, each station's price records oldest first. */
export interface MirrorCatalog {
  stations: CatalogStation[];
  /** Station id → its price records, oldest first. */
  prices: Map<string, PriceRecord[]>;
  /** When the latest walk was recorded (epoch ms); null when none was. */
  lastWalkMs: number | null;
  /** The oldest price record's start: history reaches back to here at the earliest; null without records. */
  historyFromMs: number | null;
}
