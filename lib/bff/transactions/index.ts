import "server-only";

/**
 * The transactions resource's face for the rest of the BFF: the mirror-only filter parameters the savings report takes
 * too (driver, station). Other folders import this, never the transactions' modules.
 */
export { mirrorShape } from "./mirror-params";
