import { describe, expect, it, vi } from "vitest";

import { CITIES, INTERSTATES, STATE_AREA_CODES, STATE_PRICE_BASE, STATE_ZIP3 } from "./geo-data";
import { CASEYS_STATES, KWIKTRIP_STATES, STATE_BOUNDS, STATES, US_STATE_CODES } from "./geo-data";
import { haversineKm, isPlausibleLocation } from "./geography";
import { createRng } from "./rng";
import { AMENITIES, BRAND_REGIONS, BRAND_SHARES, BRANDS, type StationSeed } from "./station-catalog";
import { generateStations } from "./stations";

const NOW = new Date("2026-06-15T12:00:00Z");
const SEED = 20261120;
const generate = (seed: number, count: number, now = NOW): StationSeed[] =>
  generateStations(createRng(seed), count, now);
const share = (xs: readonly StationSeed[], pred: (s: StationSeed) => boolean): number =>
  xs.filter(pred).length / xs.length;

const catalog = generate(SEED, 2500);

describe("generateStations: determinism and size", () => {
  it("is a pure function of (seed, count, now)", () => {
    expect(generate(SEED, 2500)).toEqual(catalog);
    expect(generate(SEED + 1, 2500)).not.toEqual(catalog);
    const later = generate(SEED, 2500, new Date(NOW.getTime() + 3_600_000));
    expect(later.map((s) => s.priceUpdatedAt)).not.toEqual(catalog.map((s) => s.priceUpdatedAt));
    expect(later.map(({ priceUpdatedAt: _, ...rest }) => rest)).toEqual(
      catalog.map(({ priceUpdatedAt: _, ...rest }) => rest),
    );
  });

  it("never touches Math.random or the clock", () => {
    const random = vi.spyOn(Math, "random");
    const clock = vi.spyOn(Date, "now");
    try {
      generate(1, 300);
      expect(random).not.toHaveBeenCalled();
      expect(clock).not.toHaveBeenCalled();
    } finally {
      random.mockRestore();
      clock.mockRestore();
    }
  });

  it.each([0, 1, 10, 57, 196, 400, 2500])("returns exactly %i stations", (count) => {
    expect(generate(3, count)).toHaveLength(count);
  });

  it("rejects impossible counts and dates", () => {
    for (const bad of [-1, 1.5, Number.NaN, 100_000]) expect(() => generate(1, bad)).toThrow(RangeError);
    expect(() => generate(1, 10, new Date("nope"))).toThrow(RangeError);
  });

  it("generates 10,000 stations with unique ids, loc_nums and names", () => {
    const big = generate(99, 10_000);
    expect(big).toHaveLength(10_000);
    expect(new Set(big.map((s) => s.id)).size).toBe(10_000);
    expect(new Set(big.map((s) => s.locNum)).size).toBe(10_000);
    expect(new Set(big.map((s) => s.name)).size).toBe(10_000);
    expect(big.every((s) => isPlausibleLocation(s.lat, s.lng, s.state))).toBe(true);
  });
});

describe("generateStations: identity fields", () => {
  it("loc_num is a unique 5-digit string, some with leading zeros, and the output is sorted by it", () => {
    expect(catalog.every((s) => /^\d{5}$/.test(s.locNum) && s.locNum !== "00000")).toBe(true);
    expect(new Set(catalog.map((s) => s.locNum)).size).toBe(catalog.length);
    expect(catalog.some((s) => s.locNum.startsWith("0"))).toBe(true);
    expect(catalog.map((s) => s.locNum)).toEqual(catalog.map((s) => s.locNum).sort());
  });

  it("ids are unique v4-shaped UUIDs", () => {
    expect(
      catalog.every((s) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(s.id)),
    ).toBe(true);
    expect(new Set(catalog.map((s) => s.id)).size).toBe(catalog.length);
  });

  it("names follow each chain's pattern", () => {
    const numbered: Partial<Record<StationSeed["brand"], RegExp>> = {
      pilot: /^Pilot Travel Center #\d+$/,
      loves: /^Love's Travel Stop #\d+$/,
      flyingj: /^Flying J Travel Center #\d+$/,
      kwiktrip: /^Kwik Trip #\d+$/,
      caseys: /^Casey's #\d+$/,
    };
    for (const s of catalog) {
      const pattern = numbered[s.brand];
      if (pattern) expect(s.name).toMatch(pattern);
      if (pattern) expect(s.name.endsWith(`#${String(Number(s.locNum))}`)).toBe(true);
      if (s.brand === "ta") expect(s.name.startsWith(`TA ${s.city}`)).toBe(true);
      if (s.brand === "petro") expect(s.name.startsWith(`Petro ${s.city}`)).toBe(true);
    }
    const independents = new Set(catalog.filter((s) => s.brand === "other").map((s) => s.name.split(" ")[0]));
    expect(independents.size).toBeGreaterThan(15);
  });

  it("addresses, ZIP codes and phone numbers are plausible for the state", () => {
    for (const s of catalog) {
      expect(s.address).toMatch(/^(Exit \d+, I-\d+|\d+ .+)$/);
      expect(s.zip).toMatch(/^\d{5}$/);
      const zip3 = Number(s.zip.slice(0, 3));
      expect(STATE_ZIP3[s.state].some(([lo, hi]) => zip3 >= lo && zip3 <= hi)).toBe(true);
      const phone = /^\((\d{3})\) 555-01\d{2}$/.exec(s.phone);
      expect(phone?.[1] && STATE_AREA_CODES[s.state].includes(phone[1])).toBe(true);
    }
    expect(share(catalog, (s) => s.address.startsWith("Exit "))).toBeGreaterThan(0.05);
  });

  it("amenities are a duplicate-free subset of AMENITIES in canonical order", () => {
    for (const s of catalog) {
      expect(s.amenities).toEqual(AMENITIES.filter((a) => s.amenities.includes(a)));
    }
    const bigChains = catalog.filter((s) => ["pilot", "loves", "ta", "petro", "flyingj"].includes(s.brand));
    expect(share(bigChains, (s) => s.amenities.includes("showers"))).toBeGreaterThan(0.9);
  });
});

describe("generateStations: geography", () => {
  it("uses the 48 contiguous states plus DC, and every one of them has a station at 2,500", () => {
    expect(STATES).toHaveLength(49);
    expect(STATES).toContain("DC");
    expect(STATES).not.toContain("AK");
    expect(STATES).not.toContain("HI");
    expect(new Set(US_STATE_CODES).size).toBe(51);
    expect(STATES.every((s) => (US_STATE_CODES as readonly string[]).includes(s))).toBe(true);
    const present = new Set(catalog.map((s) => s.state));
    expect([...STATES].filter((s) => !present.has(s))).toEqual([]);
    expect([...present].every((s) => (STATES as readonly string[]).includes(s))).toBe(true);
  });

  it("every point is inside its state's bounding box and near a real place of that state", () => {
    for (const s of catalog) {
      const box = STATE_BOUNDS[s.state];
      expect(s.lat).toBeGreaterThanOrEqual(box.minLat);
      expect(s.lat).toBeLessThanOrEqual(box.maxLat);
      expect(s.lng).toBeGreaterThanOrEqual(box.minLng);
      expect(s.lng).toBeLessThanOrEqual(box.maxLng);
      expect(isPlausibleLocation(s.lat, s.lng, s.state)).toBe(true);
      expect(Math.round(s.lat * 1e5) / 1e5).toBe(s.lat);
      expect(Math.round(s.lng * 1e5) / 1e5).toBe(s.lng);
    }
  });

  it("the station's city is a place of its state within 60 km", () => {
    const places = [...CITIES, ...INTERSTATES.flatMap((r) => r.points.flatMap((p) => (p.kind === "place" ? [p] : [])))];
    for (const s of catalog) {
      const match = places.filter((p) => p.name === s.city && p.state === s.state);
      expect(match.length).toBeGreaterThan(0);
      expect(Math.min(...match.map((p) => haversineKm(s.lat, s.lng, p.lat, p.lng)))).toBeLessThanOrEqual(60);
    }
  });

  it("puts roughly half the stations along interstates and the rest near cities", () => {
    const onInterstate = share(
      catalog,
      (s) =>
        /I-\d+/.test(s.address) ||
        !CITIES.some(
          (c) =>
            c.name === s.city && c.state === s.state && haversineKm(s.lat, s.lng, c.lat, c.lng) <= c.radiusKm + 0.01,
        ),
    );
    expect(onInterstate).toBeGreaterThan(0.3);
    expect(onInterstate).toBeLessThan(0.6);
  });

  it("rejects points outside the state or far from any place", () => {
    expect(isPlausibleLocation(35.222, -101.831, "TX")).toBe(true); // Amarillo
    expect(isPlausibleLocation(35.222, -101.831, "OK")).toBe(false); // Amarillo is not in Oklahoma
    expect(isPlausibleLocation(27.0, -90.0, "LA")).toBe(false); // Gulf of Mexico
    expect(isPlausibleLocation(42.3, -87.1, "IL")).toBe(false); // Lake Michigan: inside the IL box, but 60+ km from any IL place
    expect(isPlausibleLocation(31.3, -113.0, "AZ")).toBe(false); // Sonora, Mexico
    expect(isPlausibleLocation(36.5, -112.5, "AZ")).toBe(false); // Kaibab Plateau: in Arizona, but no city or interstate near
  });
});

describe("generateStations: brands", () => {
  it("follows the brand mix", () => {
    for (const brand of BRANDS) {
      expect(Math.abs(share(catalog, (s) => s.brand === brand) - BRAND_SHARES[brand])).toBeLessThan(0.03);
    }
  });

  it("keeps Kwik Trip and Casey's in their home regions", () => {
    const kwik = catalog.filter((s) => s.brand === "kwiktrip");
    const caseys = catalog.filter((s) => s.brand === "caseys");
    expect(kwik.length).toBeGreaterThan(50);
    expect(caseys.length).toBeGreaterThan(50);
    expect(kwik.every((s) => KWIKTRIP_STATES.includes(s.state))).toBe(true);
    expect(caseys.every((s) => CASEYS_STATES.includes(s.state))).toBe(true);
    expect(BRAND_REGIONS.kwiktrip).toEqual(["WI", "MN", "IA", "IL", "MI"]);
  });
});

describe("generateStations: prices", () => {
  it("are integers in thousandths, in range, ending in 9", () => {
    for (const s of catalog) {
      const { diesel, unleaded, def } = s.prices;
      for (const p of [diesel, unleaded, ...(def === null ? [] : [def])]) {
        expect(Number.isInteger(p)).toBe(true);
        expect(p % 10).toBe(9);
      }
      expect(diesel).toBeGreaterThanOrEqual(3000);
      expect(diesel).toBeLessThanOrEqual(6000);
      expect(unleaded).toBeGreaterThanOrEqual(2500);
      expect(unleaded).toBeLessThan(diesel);
      expect(def === null).toBe(!s.hasDef);
      if (def !== null) {
        expect(def).toBeGreaterThanOrEqual(2800);
        expect(def).toBeLessThanOrEqual(4500);
      }
      expect(Math.abs(diesel - STATE_PRICE_BASE[s.state])).toBeLessThanOrEqual(360);
    }
  });

  it("vary by state: the west coast is dearest, Texas and the Gulf cheapest", () => {
    const mean = (state: string): number => {
      const xs = catalog.filter((s) => s.state === state).map((s) => s.prices.diesel);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    for (const west of ["CA", "WA", "OR", "NV"]) {
      expect(mean(west)).toBeGreaterThan(4550);
      expect(mean(west)).toBeLessThan(5600);
    }
    for (const gulf of ["TX", "OK", "LA", "MS"]) {
      expect(mean(gulf)).toBeGreaterThan(3250);
      expect(mean(gulf)).toBeLessThan(3650);
    }
    expect(mean("CA") - mean("TX")).toBeGreaterThan(1500);
  });

  it("most stations sell DEF", () => {
    expect(share(catalog, (s) => s.hasDef)).toBeGreaterThan(0.6);
    expect(share(catalog, (s) => s.hasDef)).toBeLessThan(0.8);
  });

  it("price stamps are recent, with 4-12% two to ten days stale", () => {
    const now = NOW.getTime();
    const ages = catalog.map((s) => {
      expect(s.priceUpdatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      return (now - Date.parse(s.priceUpdatedAt)) / 3_600_000;
    });
    expect(ages.every((h) => h > 0 && (h < 24 || (h >= 48 && h <= 240)))).toBe(true);
    const stale = ages.filter((h) => h >= 24).length / ages.length;
    expect(stale).toBeGreaterThanOrEqual(0.04);
    expect(stale).toBeLessThanOrEqual(0.12);
  });
});
