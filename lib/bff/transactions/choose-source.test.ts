import { describe, expect, it } from "vitest";

import type { MirrorStore, SyncState } from "@/lib/mirror";
import { rejection } from "@/test/mirror-serve-stack";

import { operationContextForTest } from "../http/test-context";
import type { MirrorAccess } from "../platform/mirror-access";
import { chooseSource } from "./choose-source";

// Issue 27: the one choice between the mirror and the upstream, each caller's difference a parameter. chooseSource
// reads only the mirror's state and asks it for a fresh head sync, so the mirror here is its state alone: the store
// is never touched (the five operations over a real mirror and the sandbox are tested in ./mirror-*.test.ts).

const HEAD_SYNC = Date.parse("2026-11-24T12:00:00Z");
const state = (over: Partial<SyncState>): SyncState => ({
  customerId: "c",
  newestAtMs: null,
  coverageFromMs: null,
  backfill: { toDay: null, nextPage: null, expected: null, doneRows: 0, complete: false },
  lastHeadSyncMs: HEAD_SYNC,
  lastVerificationMs: null,
  lastVerification: null,
  lastError: null,
  ...over,
});

function withMirror(s: SyncState | null) {
  const asked = { fresh: 0 };
  const access: MirrorAccess | null =
    s === null
      ? null
      : {
          // Never read by the choice (see above); a store would only be needed to answer.
          store: null as unknown as MirrorStore,
          customerId: "c",
          state: s,
          requestFresh: () => {
            asked.fresh++;
          },
          comparePending: () => undefined,
        };
  const ctx = { ...operationContextForTest({ keyId: "ffk_test", secret: "s" }), mirror: () => Promise.resolve(access) };
  return { ctx, asked };
}

const FROM = Date.parse("2026-10-10T00:00:00Z");

describe("chooseSource", () => {
  it("serves from the mirror when it reaches back to the start asked, asking it for a fresh head sync", async () => {
    const { ctx, asked } = withMirror(state({ coverageFromMs: FROM }));
    const source = await chooseSource(ctx, { fromMs: FROM, mirrorOnly: ["filtering by driver"] });
    expect(source.kind).toBe("mirror");
    expect(source.origin).toEqual({ source: "mirror", asOf: "2026-11-24T12:00:00.000Z", note: null });
    expect(asked.fresh).toBe(1);
  });

  it("answers from the upstream, saying why, when the mirror does not reach back far enough", async () => {
    const { ctx, asked } = withMirror(state({ coverageFromMs: FROM }));
    const source = await chooseSource(ctx, { fromMs: FROM - 86_400_000 });
    expect(source.kind).toBe("upstream");
    expect(source.origin.note).toBe(
      "The local copy of your transactions does not reach back to 2026-10-09 yet (it reaches back to 2026-10-10 so far), so these come from the Fleet Fuel API.",
    );
    expect(asked.fresh).toBe(1);
    // An open start needs the whole history.
    const open = await chooseSource(ctx, { fromMs: undefined });
    expect(open.origin.note).toMatch(/is still loading older history \(it reaches back to 2026-10-10 so far\)/);
    const complete = withMirror(state({ backfill: { ...state({}).backfill, complete: true } }));
    expect((await chooseSource(complete.ctx, { fromMs: undefined })).kind).toBe("mirror");
  });

  it("refuses mirror-only parameters without a covering mirror: 409 naming them, and what to do", async () => {
    const loading = withMirror(state({ lastHeadSyncMs: null }));
    const error = await rejection(
      chooseSource(loading.ctx, { fromMs: FROM, mirrorOnly: ["filtering by driver", "sorting by amount"] }),
    );
    expect(error.code).toBe("mirror_needed");
    expect(error.message).toBe(
      "Filtering by driver and sorting by amount need the local copy of your transactions, which is still loading. Try again once it has loaded, or remove those filters.",
    );
    const none = withMirror(null);
    const refused = await rejection(chooseSource(none.ctx, { fromMs: FROM, mirrorOnly: ["filtering by card"] }));
    expect(refused.message).toMatch(
      /^Filtering by card needs .* is not available for this session .* Remove that filter/,
    );
    // Without mirror-only parameters the upstream answers, with no note when the session has no mirror at all.
    expect((await chooseSource(none.ctx, { fromMs: FROM })).origin).toEqual({
      source: "upstream",
      asOf: null,
      note: null,
    });
  });

  it("gives the insights the mirror whatever it covers, or a 409 when the session has none", async () => {
    const loading = withMirror(state({ lastHeadSyncMs: null }));
    const source = await chooseSource(loading.ctx, { needs: "mirror" });
    expect(source.kind).toBe("mirror");
    expect(source.access.state.lastHeadSyncMs).toBeNull();
    expect(loading.asked.fresh).toBe(1);
    const error = await rejection(chooseSource(withMirror(null).ctx, { needs: "mirror" }));
    expect(error.code).toBe("mirror_needed");
    expect(error.message).toMatch(/computed from the local copy .* transactions scope/);
  });
});
