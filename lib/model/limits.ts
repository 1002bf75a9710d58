/**
 * Limits shared by the browser and the BFF (zod-free, so pages can import them): one home for each, so the input a
 * page allows and the query the BFF accepts cannot drift apart.
 */

/** The longest search term, in characters (transactions and stations; the spec's `search` filter). */
export const MAX_SEARCH_LENGTH = 100;
