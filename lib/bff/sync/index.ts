import "server-only";

/**
 * The sync resource's face for the rest of the BFF (the route adapter, sign-in and sign-out, health, the drill-down
 * pages): the process's mirror service and the session's gate to its mirror. Other folders import this, never
 * sync's modules (eslint.config.mjs, "a resource imports another only through its index").
 */
export { mirrorFor, mirrorService } from "./instance";
export type { MirrorService } from "./service";
