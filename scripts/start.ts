// `npm start`: the one command that runs the whole product on a fresh machine.
//
// The app listens on 127.0.0.1 (this machine only) unless HOST says otherwise: exposing it (HOST=0.0.0.0) is for a
// deployment behind a TLS-terminating proxy, with SESSION_SECRET etc. set (docs/security.md: what a deployment must
// provide). The sandbox always listens on 127.0.0.1.
//
// Without FLEET_API_BASE_URL it starts the reference sandbox (sandbox/cli.ts) and points the app at it; with it, the app
// talks to that upstream and no sandbox runs. The app is built once when no production build exists, then served with
// `next start`. Ctrl-C / SIGTERM stops everything; if one child dies, the other is stopped and we exit non-zero.
import path from "node:path";

import nextEnv from "@next/env";

import { isShuttingDown, onStopSignal, shutdown, STOP_SIGNALS } from "./start/children";
import { browserHost, readConfig } from "./start/config";
import { EXIT_FAILURE, log } from "./start/log";
import { type LogSink, logSink, terminalLevel, WARN_LEVEL } from "./start/log-sink";
import { NEXT_BIN, ROOT, TSX_CLI } from "./start/paths";
import { assertPortFree } from "./start/readiness";
import { buildIfNeeded, readDemoKey, requireFile, startAppService, startSandbox } from "./start/services";

async function main(): Promise<void> {
  // .env, .env.local and .env.production(.local), with Next's precedence; variables already set win. Loaded here too so
  // PORT, SANDBOX_* and FLEET_API_BASE_URL from those files reach the launcher and the sandbox, not only the app.
  nextEnv.loadEnvConfig(ROOT, false, { info: () => undefined, error: console.error });
  const config = readConfig(process.env);
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      onStopSignal(signal);
    });
  }
  requireFile(NEXT_BIN, "Run npm install first.");
  requireFile(TSX_CLI, "Run npm install first.");

  // Each child's whole output goes to LOG_DIR (default .data/logs); the terminal shows warnings and errors only.
  const configuredLogDir = process.env.LOG_DIR?.trim();
  const logDir = path.resolve(
    ROOT,
    configuredLogDir === undefined || configuredLogDir === "" ? ".data/logs" : configuredLogDir,
  );
  const level = terminalLevel(process.env);
  const sinks: LogSink[] = [];
  const sinkFor = (name: string) => {
    const sink = logSink(logDir, name, level);
    sinks.push(sink);
    return sink;
  };

  let upstream = config.upstream;
  let demo: { keyId: string; secret: string } | undefined;
  // The sandbox's conveniences (demo key, generated SESSION_SECRET, plain http) need SANDBOX=1: set here when this
  // launcher starts the sandbox itself, never inferred from a loopback FLEET_API_BASE_URL (lib/bff/platform/config.ts).
  const sandboxEnv: Record<string, string> = {};
  if (upstream === undefined) {
    upstream = await startSandbox(config.sandboxPort, sinkFor("sandbox"));
    sandboxEnv.SANDBOX = "1";
    demo = process.env.DEMO_KEY_ID === undefined ? readDemoKey() : undefined;
    if (demo !== undefined) Object.assign(sandboxEnv, { DEMO_KEY_ID: demo.keyId, DEMO_KEY_SECRET: demo.secret });
  } else {
    log(`Using the Fleet Fuel API at ${upstream} (from FLEET_API_BASE_URL); the sandbox is not started.`);
  }

  await assertPortFree(config.appPort, "PORT");
  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...sandboxEnv,
    FLEET_API_BASE_URL: upstream,
    PORT: String(config.appPort),
  };
  await buildIfNeeded(appEnv);

  await startAppService("app", config.appHost, config.appPort, appEnv, sinkFor("app"));
  const exposed = config.appHost === "0.0.0.0" || config.appHost === "::";
  banner([
    `Dashboard: http://${browserHost(config.appHost)}:${config.appPort}${exposed ? ` (listening on every interface: HOST=${config.appHost})` : ""}`,
    ...(demo === undefined
      ? []
      : [
          `Demo key pair (this sandbox only; the login page also offers "Sign in with the demo key"):`,
          `  key_id  ${demo.keyId}`,
          `  secret  ${demo.secret}`,
        ]),
    `Upstream: ${upstream}${config.upstream === undefined ? " (the sandbox started here)" : ""}`,
    `Logs: ${sinks.map((s) => s.file).join(", ")}; here only warnings and errors${level < WARN_LEVEL ? " (LOG_LEVEL: more)" : " (LOG_LEVEL=info shows every request)"}`,
    "Stop: Ctrl-C",
  ]);
}

/** The lines a person starting the product needs, framed so they stand out. */
function banner(lines: string[]): void {
  const rule = "─".repeat(72);
  log(rule);
  for (const line of lines) log(line);
  log(rule);
}

main().catch((error: unknown) => {
  // Once a shutdown is under way, an aborted wait is expected and the shutdown owns the exit.
  if (isShuttingDown()) return;
  const message = error instanceof Error ? error.message : String(error);
  void shutdown({ exitCode: EXIT_FAILURE, signal: "SIGTERM", reason: message, isFromSignal: false });
});
