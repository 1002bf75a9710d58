import { randomBytes } from "node:crypto";

import { Redis } from "ioredis";
import { unsealData } from "iron-session";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type RedisServer, startRedisServer } from "@/test/redis-server";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { RequestBudget } from "./budget";
import { RedisBudgetStore } from "./budget-store-redis";
import { FleetApiClient } from "./client";
import { isFleetApiError } from "./errors";
import { resetVariants } from "./negotiation";
import { RedisTokenStore } from "./token-store";

/*
 * The bearer token shared through a real redis-server by several "instances" (FleetApiClient objects, each with its
 * own memory and its own Redis connection, as separate processes would have), against the real sandbox.
 */

const TOKEN_TTL_SECONDS = 4;
const PASSWORDS = { "1": randomBytes(32).toString("base64url") };

describe.each(["primary", "alternative"] as const)("the token shared by several instances (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let server: RedisServer;
  const connections: Redis[] = [];
  const namingKey = randomBytes(32);
  const connect = (url = server.url): Redis => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    redis.on("error", () => undefined); // a dead server is what one test is about; its commands report it
    connections.push(redis);
    return redis;
  };
  /** One instance: its own client, token memory, connection, budget (shared through Redis) and token store. */
  const instance = (url = server.url): FleetApiClient => {
    const redis = connect(url);
    return new FleetApiClient({
      baseUrl: upstream.baseUrl,
      budget: new RequestBudget({ budget: 100_000, store: new RedisBudgetStore(redis, { namingKey }) }),
      tokens: new RedisTokenStore(redis, { passwords: PASSWORDS, namingKey }),
    });
  };
  /** The POST /auth requests the sandbox logged. */
  const authCalls = () => [...upstream.output().matchAll(/\[sandbox\] POST \/api\/v1\/auth (\d{3})/g)].length;
  const requests = () => [...upstream.output().matchAll(/\[sandbox\] (GET|POST) \/api\/v1\//g)].length;

  beforeAll(async () => {
    [upstream, server] = await Promise.all([
      startSandboxProcess({
        profile,
        log: true,
        args: ["--budget", "100000", "--token-ttl-seconds", String(TOKEN_TTL_SECONDS)],
      }),
      startRedisServer(),
    ]);
    resetVariants();
  });
  afterAll(async () => {
    for (const redis of connections) redis.disconnect();
    await Promise.all([upstream.stop(), server.stop()]);
  });

  it("makes one POST /auth per token lifetime over all instances, a first call of all at once included", async () => {
    const pair = upstream.keys["demo-full"];
    const clients = Array.from({ length: 4 }, () => instance());
    const before = authCalls();
    await Promise.all(clients.map((client) => client.getAccount(pair)));
    await Promise.all(clients.map((client) => client.getAccount(pair)));
    expect(authCalls() - before).toBe(1);

    // Once the token has expired everywhere, all at once again: one renewal, the others read the new token.
    await new Promise((r) => setTimeout(r, (TOKEN_TTL_SECONDS + 0.5) * 1000));
    await Promise.all(clients.map((client) => client.getAccount(pair)));
    await Promise.all(clients.map((client) => client.getAccount(pair)));
    expect(authCalls() - before).toBe(2);
  }, 30_000);

  it("keeps the token sealed in Redis: no token, key id or secret in clear, and no key name naming the key", async () => {
    const pair = upstream.keys["demo-full"];
    await instance().getAccount(pair);
    // The sandbox hands the key's current token to anyone who asks while it is valid: the token the instances hold.
    const res = await fetch(`${upstream.baseUrl}/auth`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ key_id: pair.keyId, secret: pair.secret }),
    });
    const { access_token: token } = (await res.json()) as { access_token: string };
    expect(token.length).toBeGreaterThan(10);

    const redis = connect();
    const names = await redis.keys("*");
    const tokenNames = names.filter((name) => name.startsWith("ffd:token:"));
    expect(tokenNames.length).toBeGreaterThan(0);
    let dump = names.join("\n");
    for (const name of tokenNames) {
      const type = await redis.type(name);
      if (type === "string") dump += `\n${(await redis.get(name)) ?? ""}`;
    }
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(pair.keyId);
    expect(dump).not.toContain(pair.secret);
    // Sealed with the session's passwords: another password reads nothing from it.
    const sealed = (await redis.get(tokenNames.find((n) => !n.endsWith(":renewal")) ?? "")) ?? "";
    expect(JSON.stringify(await unsealData(sealed, { password: PASSWORDS }))).toContain(token);
    const stranger = { "1": randomBytes(32).toString("base64url") };
    expect(JSON.stringify(await unsealData(sealed, { password: stranger }))).not.toContain(token);
  });

  it("fails closed when Redis dies: shared_state_unavailable, and nothing reaches the provider", async () => {
    const own = await startRedisServer();
    const pair = upstream.keys["demo-full"];
    const client = instance(own.url);
    await client.getAccount(pair);
    await own.stop({ crash: true });
    const sent = requests();
    const failure = await client.getAccount(pair).catch((error: unknown) => error);
    expect(isFleetApiError(failure) && failure.code).toBe("shared_state_unavailable");
    const fresh = await instance(own.url)
      .getAccount(upstream.keys["other-full"])
      .catch((error: unknown) => error);
    expect(isFleetApiError(fresh) && fresh.code).toBe("shared_state_unavailable");
    expect(requests()).toBe(sent);
  });
});
