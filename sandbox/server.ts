import type { AddressInfo } from "node:net";

import { serve, type ServerType } from "@hono/node-server";
import type Database from "better-sqlite3";

import { API_PREFIX, createSandboxApp } from "./app";
import type { SandboxConfig } from "./config";

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:4010 */
  origin: string;
  /** origin + /api/v1: what a client calls {base_url}. */
  baseUrl: string;
  port: number;
  close(): Promise<void>;
}

/** Serves the sandbox over real HTTP. Port 0 picks a free port (tests). */
export async function startSandboxServer(options: {
  db: Database.Database;
  config: SandboxConfig;
  port: number;
  host?: string;
  log?: (line: string) => void;
}): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  const app = createSandboxApp({
    db: options.db,
    config: options.config,
    ...(options.log ? { log: options.log } : {}),
  });
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port, hostname: host }, () => {
      resolve(s);
    });
    s.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${String(port)}`;
  return {
    origin,
    baseUrl: origin + API_PREFIX,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close((err) => {
          if (err) reject(err);
          else resolve();
        });
      }),
  };
}
