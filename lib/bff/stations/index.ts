import "server-only";

/**
 * The stations resource's face for the rest of the BFF: the key's station catalog (cached, recorded in the mirror),
 * which the insights read beside the fleet's purchases. Other folders import this, never the stations' modules.
 */
export { getCatalog, recordWalk } from "./catalog";
