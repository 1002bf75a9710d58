import "server-only";

/**
 * The transactions resource's face for the rest of the BFF: the one choice of source, which the insights use too
 * (they need the mirror), and the mirror-only filter parameters the savings report takes too (driver, station).
 * Other folders import this, never the transactions' modules.
 */
export { chooseSource } from "./choose-source";
export { mirrorShape } from "./mirror-params";
export type { MirrorSource, TransactionSource } from "./source";
