/**
 * Where `npm start`'s children write: every line to a log file (the app's JSON lines whole), and to the terminal only
 * what a person at it should read — warnings and errors (or every line at LOG_LEVEL=info/debug), pino's JSON made
 * readable by pino-pretty, and anything a child writes to stderr. The terminal keeps the launcher's banner in view
 * instead of a JSON line per request. Production (`npm run start:app`) keeps JSON on stdout: this is the launcher's.
 */
import { createWriteStream, existsSync, renameSync, type WriteStream } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

import { prettyFactory } from "pino-pretty";

import { ensurePrivateDir } from "../../lib/private-files";
import { log } from "./log";

/** pino's numbered levels, by the names LOG_LEVEL takes. */
const LEVELS = new Map([
  ["trace", 10],
  ["debug", 20],
  ["info", 30],
  ["warn", 40],
  ["error", 50],
  ["fatal", 60],
]);
export const WARN_LEVEL = 40;

/** The level from which the terminal shows a child's JSON lines: LOG_LEVEL when set, else warnings and errors. */
export function terminalLevel(env: NodeJS.ProcessEnv): number {
  return LEVELS.get(env.LOG_LEVEL?.trim().toLowerCase() ?? "") ?? WARN_LEVEL;
}

/** A pino line's level, or undefined for a line that is not pino's JSON (Next's banner, the sandbox's lines). */
function pinoLevel(line: string): { level: number; record: Record<string, unknown> } | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const record = JSON.parse(line) as unknown;
    if (typeof record !== "object" || record === null) return undefined;
    const { level } = record as { level?: unknown };
    return typeof level === "number" ? { level, record: record as Record<string, unknown> } : undefined;
  } catch {
    return undefined;
  }
}

/** The log file of one child, the previous run's kept beside it (`app.log` → `app.previous.log`). */
export function openLogFile(dir: string, name: string): { file: string; stream: WriteStream } {
  ensurePrivateDir(dir, { warn: log });
  const file = path.join(dir, `${name}.log`);
  if (existsSync(file)) renameSync(file, path.join(dir, `${name}.previous.log`));
  return { file, stream: createWriteStream(file, { flags: "a", mode: 0o600 }) };
}

export interface LogSink {
  /** The file every line goes to, relative to the working directory when inside it. */
  file: string;
  attach: (stdout: Readable | null, stderr: Readable | null) => void;
}

/** A sink for child `name`: its lines to `dir/name.log`, and to the terminal from `level` (see terminalLevel). */
export function logSink(dir: string, name: string, level: number): LogSink {
  const { file, stream } = openLogFile(dir, name);
  const pretty = prettyFactory({
    colorize: process.stdout.isTTY,
    translateTime: "SYS:HH:MM:ss",
    ignore: "pid,hostname,service",
    singleLine: true,
  });
  const follow = (source: Readable | null, isStderr: boolean) => {
    if (source === null) return;
    createInterface({ input: source, crlfDelay: Infinity }).on("line", (line) => {
      stream.write(`${line}\n`);
      const pino = pinoLevel(line);
      if (pino !== undefined) {
        if (pino.level >= level) process.stdout.write(pretty(pino.record));
      } else if (isStderr || level < WARN_LEVEL) {
        // Plain text on stderr is a child's warning or error (Node's, Next's, the sandbox's console.warn): shown.
        (isStderr ? process.stderr : process.stdout).write(`${line}\n`);
      }
    });
  };
  return {
    file: path.relative(process.cwd(), file).startsWith("..") ? file : path.relative(process.cwd(), file),
    attach: (stdout, stderr) => {
      follow(stdout, false);
      follow(stderr, true);
    },
  };
}
