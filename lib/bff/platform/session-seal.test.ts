import { sealData } from "iron-session";
import { afterEach, describe, expect, it } from "vitest";

import { setClockOffset } from "./clock";
import { unsealCached, UNSEALED_KEPT_MS } from "./session-seal";

// Real iron-session seals (its own sealData), no stand-ins: the cache must answer exactly what unsealing answers.
const password = { "1": "a-session-password-of-at-least-32-characters" };
const ttl = 8 * 3600;
const data = { sid: "s1", keyId: "key-1", secret: "not-shown-anywhere", createdAt: 1, lastSeenAt: 2 };

afterEach(() => {
  setClockOffset(0);
});

describe("unsealCached (the session cookie's unsealed data, kept a few minutes)", () => {
  it("answers the seal's data, and the same seal again from memory without unsealing it anew", async () => {
    const seal = await sealData(data, { password, ttl });
    const first = await unsealCached<typeof data>(seal, { password, ttl });
    expect(first).toEqual(data);
    expect(Object.isFrozen(first)).toBe(true);
    // The very same object: a second unseal would build a new one.
    expect(await unsealCached<typeof data>(seal, { password, ttl })).toBe(first);
  });

  it("keeps each seal apart: another seal of other data answers its own data", async () => {
    const sealA = await sealData(data, { password, ttl });
    const sealB = await sealData({ ...data, sid: "s2" }, { password, ttl });
    expect((await unsealCached<typeof data>(sealA, { password, ttl })).sid).toBe("s1");
    expect((await unsealCached<typeof data>(sealB, { password, ttl })).sid).toBe("s2");
  });

  it("answers nothing for a tampered seal or one sealed under another password", async () => {
    const seal = await sealData(data, { password, ttl });
    const tampered = `${seal.slice(0, -3)}${seal.endsWith("A") ? "B" : "A"}~2`;
    expect(await unsealCached(tampered, { password, ttl })).toEqual({});
    const foreign = await sealData(data, { password: { "1": "another-password-of-at-least-32-characters!" }, ttl });
    expect(await unsealCached(foreign, { password, ttl })).toEqual({});
  });

  it("unseals again once the entry's few minutes have passed", async () => {
    const seal = await sealData(data, { password, ttl });
    const first = await unsealCached<typeof data>(seal, { password, ttl });
    setClockOffset(UNSEALED_KEPT_MS + 1);
    const later = await unsealCached<typeof data>(seal, { password, ttl });
    expect(later).not.toBe(first);
    expect(later).toEqual(data);
  });
});
