import type { UseQueryResult } from "@tanstack/react-query";
import { useDeferredValue } from "react";

/**
 * A query's result for a view that draws a long list or many figures from it (issue 26: a phone's main thread).
 * TanStack Query hands new data to React through an external store, which React renders in one blocking task: a
 * page's list of hundreds of cells took ~400 ms on a mid-range phone, all of it counted as blocking time. Here the data
 * goes through `useDeferredValue`, so React draws it in a transition it splits into short slices, between which the
 * browser handles input; the view says "pending" (its skeleton) until that render is done, so it never shows an empty
 * state in between. Errors are not deferred. A view that keeps the previous answer on screen (placeholder data)
 * keeps it until the new one is drawn, and `isPlaceholderData` says so (the view can mark those rows busy), as it does
 * for the query's own placeholder.
 */
export type DeferredQueryResult<TData, TError> = {
  refetch: () => Promise<unknown>;
  isFetching: boolean;
  /** The data shown is not the query's latest answer: its placeholder, or the answer before while this one is drawn. */
  isPlaceholderData: boolean;
} & (
  | { isPending: true; isError: false; data: undefined; error: null }
  | { isPending: false; isError: true; data: TData | undefined; error: TError }
  | { isPending: false; isError: false; data: TData; error: null }
);

export function useDeferredQuery<TData, TError>(
  result: UseQueryResult<TData, TError>,
): DeferredQueryResult<TData, TError> {
  return deferredResult(result, useDeferredValue(result.data));
}

/** What the view is told, from the query's result and the data React has drawn so far. */
export function deferredResult<TData, TError>(
  result: {
    isPending: boolean;
    isError: boolean;
    error: TError | null;
    refetch: () => Promise<unknown>;
    isFetching: boolean;
    isPlaceholderData: boolean;
    data: TData | undefined;
  },
  data: TData | undefined,
): DeferredQueryResult<TData, TError> {
  const { refetch, isFetching } = result;
  const isPlaceholderData = data !== undefined && (result.isPlaceholderData || data !== result.data);
  if (result.isError)
    return {
      isPending: false,
      isError: true,
      data,
      error: result.error as TError,
      refetch,
      isFetching,
      isPlaceholderData,
    };
  // A successful query's data is never undefined (TanStack Query v5), so undefined here means "not drawn yet".
  if (result.isPending || data === undefined)
    return {
      isPending: true,
      isError: false,
      data: undefined,
      error: null,
      refetch,
      isFetching,
      isPlaceholderData: false,
    };
  return { isPending: false, isError: false, data, error: null, refetch, isFetching, isPlaceholderData };
}
