import { z } from "@hono/zod-openapi";

import type { Profile } from "../config";

/**
 * Response schemas of both profiles. They document the API (OpenAPI) and tests parse every response with them.
 * Primary: numbers for gallons/prices/amounts (the spec's tables), timestamps with the station's UTC offset.
 * Alternative: decimal strings for the same fields (the spec's general rule), timestamps in UTC with Z.
 */
const uuid = z.uuid();
const offsetTimestamp = z.iso.datetime({ offset: true });

/** Primary: numbers and offset timestamps; alternative: decimal strings and UTC timestamps. */
function scalarsFor(isPrimary: boolean) {
  const decimal = (digits: number, example: string) =>
    isPrimary
      ? z.number().openapi({ example: Number(example) })
      : z
          .string()
          .regex(new RegExp(`^-?\\d+\\.\\d{${String(digits)}}$`))
          .openapi({ example });
  const timestamp = isPrimary
    ? offsetTimestamp.openapi({
        example: "2026-03-01T14:22:05-06:00",
        description: "ISO 8601 with the station's UTC offset",
      })
    : z.iso.datetime().openapi({ example: "2026-03-01T20:22:05Z", description: "ISO 8601 UTC" });
  return { decimal, timestamp };
}

type Scalars = ReturnType<typeof scalarsFor>;

/** A page of items and a single item, in the `{ok, data}` envelope both profiles use. */
const page = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      ok: z.literal(true),
      data: z.object({
        page: z.number().int(),
        limit: z.number().int(),
        total: z.number().int(),
        pages: z.number().int(),
        items: z.array(item),
      }),
    })
    .openapi(name);
const single = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ ok: z.literal(true), data: item }).openapi(name);

export function schemasFor(profile: Profile) {
  const isPrimary = profile === "primary";
  const { decimal, timestamp } = scalarsFor(isPrimary);
  const { ErrorBody, AuthResponse, Account } = callerSchemas(isPrimary);
  const { Transaction, TransactionDetail } = transactionSchemas(isPrimary, decimal, timestamp);
  const { Location, LocationDetail } = locationSchemas(isPrimary, decimal);
  return {
    ErrorBody,
    AuthResponse,
    Account,
    Transaction,
    TransactionDetail,
    Location,
    LocationDetail,
    TransactionPage: page(Transaction, "TransactionPage"),
    TransactionResponse: single(TransactionDetail, "TransactionResponse"),
    LocationPage: page(Location, "LocationPage"),
    LocationResponse: single(LocationDetail, "LocationResponse"),
  };
}

export type ProfileSchemas = ReturnType<typeof schemasFor>;

/** The error body, the token response and the account: what the API says about the caller. */
function callerSchemas(isPrimary: boolean) {
  const ErrorBody = isPrimary
    ? z.object({ ok: z.literal(false), error: z.string(), message: z.string() }).openapi(`Error`)
    : z.object({ error: z.object({ code: z.string(), message: z.string() }) }).openapi(`Error`);

  const AuthResponse = isPrimary
    ? z
        .object({
          ok: z.literal(true),
          access_token: z.string(),
          token_type: z.literal("Bearer"),
          expires_in: z.number().int(),
        })
        .openapi("AuthResponse")
    : z
        .object({
          access_token: z.string(),
          token_type: z.literal("Bearer"),
          expires_in: z.number().int(),
          scopes: z.array(z.enum(["account", "transactions", "locations"])),
        })
        .openapi("AuthResponse");

  const Account = isPrimary
    ? z
        .object({
          ok: z.literal(true),
          customer: z.object({ id: uuid, name: z.string(), code: z.string(), active: z.boolean() }),
          totals_30d: z
            .object({
              transactions: z.number().int(),
              gallons: z
                .string()
                .regex(/^\d+\.\d{3}$/)
                .openapi({ example: "12345.678" }),
              amount: z
                .string()
                .regex(/^\d+\.\d{2}$/)
                .openapi({ example: "45678.90" }),
            })
            .openapi({
              description: "Rolling 30 days up to now; completed and pending transactions (failed ones are not spend).",
            }),
        })
        .openapi("AccountDetails")
    : z
        .object({
          id: uuid,
          name: z.string(),
          fee_deduction_per_gallon: z.number(),
          is_active: z.boolean(),
          created_at: z.iso.datetime(),
        })
        .openapi("AccountDetails");
  return { ErrorBody, AuthResponse, Account };
}

function transactionSchemas(isPrimary: boolean, decimal: Scalars["decimal"], timestamp: Scalars["timestamp"]) {
  const TransactionStation = z.object({
    id: uuid,
    name: z.string(),
    loc: z.string(),
    city: z.string(),
    state: z.string().length(2),
  });
  const TransactionDriver = z.object({ id: uuid, name: z.string(), truck_id: z.string().nullable() });
  const Transaction = z
    .object({
      id: uuid,
      transaction_id: z.string(),
      transaction_at: timestamp,
      status: z.enum(["completed", "pending", "failed"]),
      product: z.string(),
      gallons: decimal(3, "123.456"),
      price_per_gallon: decimal(3, "3.849"),
      amount: decimal(2, "475.18"),
      station: TransactionStation,
      driver: TransactionDriver,
      card: z.object({ last4: z.string().regex(/^\d{4}$/) }),
      def: z.object({ gallons: decimal(3, "5.000"), amount: decimal(2, "17.45"), category: z.string() }),
    })
    .openapi("Transaction");

  const TransactionDetail = isPrimary
    ? Transaction.extend({
        station: TransactionStation.extend({ address: z.string(), zip: z.string() }),
        driver: TransactionDriver.extend({ email: z.email() }),
        card: z.object({ last4: z.string().regex(/^\d{4}$/), type: z.string() }),
        source: z.string(),
        created_at: offsetTimestamp,
        updated_at: offsetTimestamp,
      }).openapi("TransactionDetail")
    : Transaction.extend({
        audit: z.object({
          authorization_code: z.string(),
          terminal_id: z.string(),
          entry_method: z.string(),
          odometer: z.number().int().nullable(),
          recorded_at: z.iso.datetime(),
          settled_at: z.iso.datetime().nullable(),
        }),
      }).openapi("TransactionDetail");
  return { Transaction, TransactionDetail };
}

function locationSchemas(isPrimary: boolean, decimal: Scalars["decimal"]) {
  const Location = z
    .object({
      id: uuid,
      loc_num: z.string(),
      name: z.string(),
      brand: z.string(),
      address: z.string(),
      city: z.string(),
      state: z.string().length(2),
      lat: z.number(),
      lng: z.number(),
      price: decimal(3, "3.849").openapi({ description: "Latest diesel price per gallon for this customer" }),
      price_updated_at: z.iso.datetime(),
    })
    .openapi("Location");

  const LocationDetail = isPrimary
    ? Location.extend({
        amenities: z.array(z.string()),
        phone: z.string(),
        def_available: z.boolean(),
        zip: z.string(),
      }).openapi("LocationDetail")
    : Location.extend({
        phone: z.string(),
        zip: z.string(),
        amenities: z.array(z.string()),
        prices: z.object({
          diesel: decimal(3, "3.849"),
          unleaded: decimal(3, "3.449"),
          def: decimal(3, "3.199").nullable(),
        }),
      }).openapi("LocationDetail");
  return { Location, LocationDetail };
}
