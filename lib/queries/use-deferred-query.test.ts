import { describe, expect, it } from "vitest";

import { deferredResult } from "./use-deferred-query";

// Issue 26 (mobile TBT): a view draws a query's data in a deferred render; until React has drawn it, the view must
// say "pending" (its skeleton), not "done with no data" (an empty state, or a crash on `data.items`).

const refetch = () => Promise.resolve();
const drawn = { items: [1, 2] };
const success = {
  isPending: false,
  isError: false,
  error: null,
  refetch,
  isFetching: false,
  isPlaceholderData: false,
  data: drawn as { items: number[] } | undefined,
} as const;

describe("deferredResult", () => {
  it("is pending while the query is, whatever was drawn before", () => {
    const pending = { ...success, isPending: true, isFetching: true } as const;
    expect(deferredResult(pending, undefined)).toMatchObject({ isPending: true, isError: false, data: undefined });
  });

  it("is still pending when the answer came but React has not drawn it yet", () => {
    const result = deferredResult({ ...success }, undefined);
    expect(result.isPending).toBe(true);
    expect(result.data).toBeUndefined();
  });

  it("is done with the drawn data once drawn; a newer answer being drawn keeps the drawn one on screen", () => {
    expect(deferredResult(success, drawn)).toMatchObject({ isPending: false, data: drawn, isPlaceholderData: false });
    // keepPreviousData: the new page's answer came, the previous page is what React has drawn so far: shown, and
    // marked as not the latest answer, so the view can show it busy as it does the query's own placeholder.
    expect(deferredResult(success, { items: [1] })).toMatchObject({ data: { items: [1] }, isPlaceholderData: true });
    expect(deferredResult({ ...success, isPlaceholderData: true }, drawn)).toMatchObject({ isPlaceholderData: true });
  });

  it("says an error at once (not deferred), with what was drawn before if any", () => {
    const error = new Error("upstream down");
    const failed = { ...success, isError: true, error } as const;
    expect(deferredResult(failed, undefined)).toMatchObject({ isPending: false, isError: true, error });
    expect(deferredResult(failed, { items: [1] })).toMatchObject({ isError: true, data: { items: [1] } });
  });

  it("passes refetch and isFetching through, for the retry button and the busy state", () => {
    const result = deferredResult({ ...success, isFetching: true }, { items: [] });
    expect(result.refetch).toBe(refetch);
    expect(result.isFetching).toBe(true);
  });
});
