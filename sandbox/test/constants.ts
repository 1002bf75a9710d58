/** The test data set: small enough to seed in a second, big enough for many pages. */
export const TEST_SEED = 7;
export const TEST_ANCHOR = new Date("2026-06-15T12:00:00Z");
export const TEST_STATIONS = 400;
export const TEST_TRANSACTIONS = 3000;
