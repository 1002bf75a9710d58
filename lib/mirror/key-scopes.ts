import type { Kysely } from "kysely";

import type { Db, MirrorDialect } from "./types";

/**
 * Which of a customer's keys proved the transactions scope (issue 24 item 1). The primary upstream reports no scopes,
 * so a key's right to read the local copy is proven by an upstream call of its own at sign-in (one
 * `GET /transactions?limit=1`); the verdict is kept here, with the customer's mirror, so it holds across a restart
 * and across instances sharing the database, until that key signs in again. A key is named by its one-way hash
 * (credentialKey), as the `key:…` customer ids already are: nothing here reveals a secret.
 */

/** The verdict of a key: the upstream answered its own transactions call (true) or refused it the scope (false). */
export interface KeyScopeVerdict {
  transactions: boolean;
  checkedMs: number;
}

export async function createKeyScopesTable(db: Kysely<unknown>, dialect: MirrorDialect): Promise<void> {
  const int8 = dialect === "postgres" ? "bigint" : "integer";
  await db.schema
    .createTable("mirror_key_scopes")
    .ifNotExists()
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull())
    .addColumn("transactions", "integer", (c) => c.notNull())
    .addColumn("checked_ms", int8, (c) => c.notNull())
    .addPrimaryKeyConstraint("mirror_key_scopes_pk", ["customer_id", "key_hash"])
    .execute();
}

/** The stored verdict of a key of this customer, or null when none is stored. */
export async function readKeyScope(db: Db, customerId: string, keyHash: string): Promise<KeyScopeVerdict | null> {
  const row = await db
    .selectFrom("mirror_key_scopes")
    .select(["transactions", "checked_ms"])
    .where("customer_id", "=", customerId)
    .where("key_hash", "=", keyHash)
    .executeTakeFirst();
  return row ? { transactions: row.transactions === 1, checkedMs: Number(row.checked_ms) } : null;
}

/** Stores (or replaces) a key's verdict. */
export async function writeKeyScope(
  db: Db,
  customerId: string,
  keyHash: string,
  verdict: KeyScopeVerdict,
): Promise<void> {
  const values = {
    customer_id: customerId,
    key_hash: keyHash,
    transactions: verdict.transactions ? 1 : 0,
    checked_ms: verdict.checkedMs,
  };
  await db
    .insertInto("mirror_key_scopes")
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(["customer_id", "key_hash"])
        .doUpdateSet({ transactions: values.transactions, checked_ms: values.checked_ms }),
    )
    .execute();
}

export async function purgeKeyScopes(db: Db, customerId: string): Promise<void> {
  await db.deleteFrom("mirror_key_scopes").where("customer_id", "=", customerId).execute();
}
