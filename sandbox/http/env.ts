import type { HttpBindings } from "@hono/node-server";

import type { ApiKey } from "../db/keys";

/** What the auth middleware leaves for the handlers. */
export interface SandboxEnv {
  Bindings: Partial<HttpBindings>;
  Variables: {
    key: ApiKey;
    customerPk: number;
  };
}
