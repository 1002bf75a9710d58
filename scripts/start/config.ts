/** `npm start`'s configuration from the environment: ports, the listen address and the upstream, all checked at once. */
import { isIP } from "node:net";

import { EXIT_BAD_CONFIG, logError } from "./log";

const DEFAULT_APP_PORT = 3000;
const DEFAULT_APP_HOST = "127.0.0.1";
const DEFAULT_SANDBOX_PORT = 4010;
const MIN_PORT = 1;
const MAX_PORT = 65_535;

export interface Config {
  appPort: number;
  /** The address the app listens on (`next start -H`). */
  appHost: string;
  sandboxPort: number;
  /** The upstream Fleet Fuel API base URL, or undefined to start the sandbox. */
  upstream: string | undefined;
}

export function parsePort(name: string, raw: string | undefined, fallback: number, errors: string[]): number {
  const value = raw?.trim() ?? "";
  if (value === "") return fallback;
  const port = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port < MIN_PORT || port > MAX_PORT) {
    errors.push(`${name} must be an integer from ${MIN_PORT} to ${MAX_PORT}; got ${JSON.stringify(raw)}.`);
    return fallback;
  }
  return port;
}

/** An IP address or a host name to listen on; anything else (a URL, a port, spaces) is refused. */
export function parseHost(raw: string | undefined, errors: string[]): string {
  const value = raw?.trim() ?? "";
  if (value === "") return DEFAULT_APP_HOST;
  const isHostName =
    /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(value);
  if (isIP(value) === 0 && !isHostName) {
    errors.push(
      `HOST must be an address or host name to listen on, e.g. 127.0.0.1 (the default: this machine only) or 0.0.0.0 (every interface); got ${JSON.stringify(raw)}.`,
    );
    return DEFAULT_APP_HOST;
  }
  return value;
}

/** Where this script itself reaches the app: a wildcard address is reached on loopback. */
export function probeHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** The address to open in a browser: localhost for this machine's loopback (as before HOST existed). */
export function browserHost(host: string): string {
  if (host === "127.0.0.1" || host === "::1" || host === "localhost") return "localhost";
  return probeHost(host);
}

export function parseUpstream(raw: string | undefined, errors: string[]): string | undefined {
  const value = raw?.trim() ?? "";
  if (value === "") return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    errors.push(`FLEET_API_BASE_URL must be an absolute http(s) URL; got ${JSON.stringify(raw)}.`);
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    errors.push(`FLEET_API_BASE_URL must use http or https; got ${JSON.stringify(raw)}.`);
    return undefined;
  }
  return value;
}

/** Reads the environment, naming every bad variable at once. */
export function readConfig(env: NodeJS.ProcessEnv): Config {
  const errors: string[] = [];
  const appPort = parsePort("PORT", env.PORT, DEFAULT_APP_PORT, errors);
  const appHost = parseHost(env.HOST, errors);
  const sandboxPort = parsePort("SANDBOX_PORT", env.SANDBOX_PORT, DEFAULT_SANDBOX_PORT, errors);
  const upstream = parseUpstream(env.FLEET_API_BASE_URL, errors);
  if (errors.length === 0 && upstream === undefined && appPort === sandboxPort) {
    errors.push(`PORT and SANDBOX_PORT are both ${appPort}; give the app and the sandbox different ports.`);
  }
  if (errors.length > 0) {
    logError("Cannot start: bad configuration.");
    for (const error of errors) console.error(`  - ${error}`);
    process.exit(EXIT_BAD_CONFIG);
  }
  return { appPort, appHost, sandboxPort, upstream };
}
