import { describe, expect, it } from "vitest";

import { Account } from "../model";
import { containerAt, expectInvalidResponse, load, withValue } from "./fixtures/fixture-body";
import { reshapeAccount, reshapeAuth } from "./reshape";

describe("reshapeAuth", () => {
  it("reads the primary reply (ok, no scopes)", () => {
    expect(reshapeAuth(load("auth-primary"))).toEqual({
      accessToken: "fft_9b1f3c2e5a7d4b60a8e2c4f61d93b7a0e5c8f2d4a6b1",
      expiresInSeconds: 3600,
      scopes: null,
    });
  });

  it("reads the alternative reply (no ok, scopes)", () => {
    expect(reshapeAuth(load("auth-alternative"))).toEqual({
      accessToken: "fft_2d7e91c4b0a34f5e8c6d1a7b3f9e0c25d4a8b6e1f3c7",
      expiresInSeconds: 3600,
      scopes: ["account", "transactions", "locations"],
    });
  });

  it("reads ok together with scopes, and scopes: null", () => {
    expect(
      reshapeAuth({ ok: true, access_token: "t", token_type: "bearer", expires_in: 12, scopes: ["read"] }).scopes,
    ).toEqual(["read"]);
    expect(reshapeAuth({ access_token: "t", expires_in: 0, scopes: null }).scopes).toBeNull();
  });

  it("names what is wrong", () => {
    expectInvalidResponse(
      () => reshapeAuth(withValue("auth-primary", "access_token", undefined)),
      "access_token",
      "The Fleet Fuel API sent a sign-in reply we cannot read: access_token is missing",
    );
    expectInvalidResponse(
      () => reshapeAuth(withValue("auth-primary", "expires_in", "3600")),
      "expires_in",
      "The Fleet Fuel API sent a sign-in reply we cannot read: expires_in is not a number",
    );
    expectInvalidResponse(
      () => reshapeAuth(withValue("auth-primary", "token_type", "MAC")),
      "token_type",
      "The Fleet Fuel API sent a sign-in reply we cannot read: token_type is not Bearer",
    );
    expectInvalidResponse(
      () => reshapeAuth(withValue("auth-primary", "ok", false)),
      "ok",
      "The Fleet Fuel API sent a sign-in reply we cannot read: ok is not true",
    );
    expectInvalidResponse(
      () => reshapeAuth(withValue("auth-alternative", "scopes.1", 7)),
      "scopes.1",
      "The Fleet Fuel API sent a sign-in reply we cannot read: scopes.1 is not a string",
    );
  });
});

describe("reshapeAccount", () => {
  const customer = { id: "8c2f4e1a-5b3d-4f7a-9e6c-1d2b3a4c5e6f", name: "Prairie Freight Lines" };

  it("reads the primary nested shape with its totals", () => {
    const account = reshapeAccount(load("account-primary"));
    expect(account).toEqual({
      ...customer,
      code: "PFL",
      active: true,
      createdAt: null,
      totals30d: { transactions: 1043, gallons: "98765.432", amount: "376112.58", source: "upstream" },
    });
    expect(Account.parse(account)).toEqual(account);
  });

  it("gives totals30d null when the nested shape has no totals_30d", () => {
    expect(reshapeAccount(load("account-primary-no-totals")).totals30d).toBeNull();
  });

  it("normalizes totals sent as numbers", () => {
    const body = withValue("account-primary", "totals_30d", { transactions: 3, gallons: 250.5, amount: 964.2 });
    expect(reshapeAccount(body).totals30d).toEqual({
      transactions: 3,
      gallons: "250.500",
      amount: "964.20",
      source: "upstream",
    });
  });

  it("reads the alternative flat shape, without the withheld fee", () => {
    const account = reshapeAccount(load("account-alternative"));
    expect(account).toEqual({
      ...customer,
      code: null,
      active: true,
      createdAt: "2024-11-20T15:00:00.000Z",
      totals30d: null,
    });
    expect(Account.parse(account)).toEqual(account);
    expect(JSON.stringify(account)).not.toMatch(/fee|0\.085/);
  });

  it("reads the flat shape wrapped in data, converting created_at to UTC", () => {
    const account = reshapeAccount(load("account-alternative-wrapped"));
    expect(account).toEqual({
      ...customer,
      code: null,
      active: false,
      createdAt: "2024-11-20T15:00:00.000Z",
      totals30d: null,
    });
    expect(JSON.stringify(account)).not.toMatch(/fee|0\.085/);
  });

  it("accepts either spelling of the active flag in either shape", () => {
    const nested = withValue("account-primary", "customer", { ...customer, code: "PFL", is_active: false });
    expect(reshapeAccount(nested).active).toBe(false);
    const flat = withValue("account-alternative", "is_active", undefined);
    containerAt(flat, []).active = true;
    expect(reshapeAccount(flat).active).toBe(true);
  });

  it("names the missing field of the shape the reply resembles", () => {
    expectInvalidResponse(
      () => reshapeAccount({ ok: true }),
      "customer",
      "The Fleet Fuel API sent an account we cannot read: customer is missing",
    );
    expectInvalidResponse(
      () => reshapeAccount(withValue("account-primary", "customer.active", undefined)),
      "customer.active",
      "The Fleet Fuel API sent an account we cannot read: customer.active is missing",
    );
    expectInvalidResponse(
      () => reshapeAccount(withValue("account-alternative", "is_active", undefined)),
      "is_active",
      "The Fleet Fuel API sent an account we cannot read: is_active is missing",
    );
    expectInvalidResponse(
      () => reshapeAccount(withValue("account-alternative-wrapped", "data.created_at", "2024-11-20 15:00:00")),
      "data.created_at",
      "The Fleet Fuel API sent an account we cannot read: data.created_at is not a date and time with a time zone (Z or an offset)",
    );
    expectInvalidResponse(
      () => reshapeAccount(withValue("account-primary", "totals_30d.amount", "abc")),
      "totals_30d.amount",
      "The Fleet Fuel API sent an account we cannot read: totals_30d.amount is not a number or decimal string",
    );
  });
});
