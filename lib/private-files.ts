/**
 * Files the dashboard keeps on disk (the SQLite databases: sessions, the mirror; the generated session secret) hold
 * every tenant's data and the keys to the sessions: only the user the app runs as may read them. Folders are made
 * 0700 and files 0600, whatever the umask; a file or data folder found wider at start is narrowed, with a warning.
 * Used by lib/bff (config-session, revocations, the heartbeat) and lib/mirror (the store): it depends on nothing.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";
import { basename, dirname, resolve, sep } from "node:path";

const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** What SQLite writes beside a database file; it creates them with the database file's mode. */
const SQLITE_SIBLINGS = ["-wal", "-shm", "-journal"] as const;
/** Group and others may pass through a folder (x) but not list or write it: as root, PostgreSQL's user must reach its
 * cluster under `.data/cluster/` (npm run start:cluster), which leaves `.data` 0710 with the group `postgres`. */
const DIR_TOO_WIDE = 0o066;
const FILE_TOO_WIDE = 0o077;
const STICKY = 0o1000;

export type Warn = (message: string) => void;

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, "0");

const defaultWarn: Warn = (message) => {
  console.warn(message);
};

/**
 * A folder of the dashboard's own data: one named `.data` or inside one (the default `.data/`, `.data/cluster/`), or
 * one the caller names as dedicated (CLUSTER_DATA_DIR). Only such a folder is narrowed when found wider: a file
 * configured elsewhere (MIRROR_PATH=/srv/x.db) must not change the mode of a folder others may share.
 */
function isDataFolder(dir: string): boolean {
  const absolute = resolve(dir); // ".data/x" is inside a .data too
  return basename(absolute) === ".data" || absolute.includes(`${sep}.data${sep}`);
}

/** Creates `dir` (and missing parents) 0700; narrows an existing data folder that others can read or write. */
export function ensurePrivateDir(dir: string, options: { warn?: Warn; dedicated?: boolean } = {}): void {
  const warn = options.warn ?? defaultWarn;
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    chmodSync(dir, PRIVATE_DIR_MODE); // the umask may have taken bits off, never added: this is for clarity
    return;
  }
  const { mode } = statSync(dir);
  if ((mode & DIR_TOO_WIDE) === 0 || (mode & STICKY) !== 0) return;
  if (!options.dedicated && !isDataFolder(dir)) {
    warn(
      `[dashboard] ${dir} (mode ${octal(mode)}) can be read by other users of this machine, and it holds the dashboard's data: make it owner-only (chmod 700) or move the files to a private folder.`,
    );
    return;
  }
  chmodSync(dir, PRIVATE_DIR_MODE);
  warn(`[dashboard] ${dir} was mode ${octal(mode)} (other users could list it); made it owner-only (0700).`);
}

/** Narrows `file` to 0600 when it exists and others (or the group) can read or write it; warns when it did. */
function narrowFile(file: string, warn: Warn): void {
  if (!existsSync(file)) return;
  const { mode } = statSync(file);
  if ((mode & FILE_TOO_WIDE) === 0) return;
  chmodSync(file, PRIVATE_FILE_MODE);
  warn(`[dashboard] ${file} was mode ${octal(mode)} (other users could read it); made it owner-only (0600).`);
}

/**
 * Makes `file` private before it is opened: its folder 0700 (created, or narrowed: ensurePrivateDir), the file
 * created empty with 0600 when missing (SQLite takes an empty file as a new database, and gives its -wal and -shm
 * the database file's mode), and an existing file or SQLite sibling (-wal, -shm, -journal) narrowed to 0600.
 */
export function ensurePrivateFile(file: string, options: { warn?: Warn } = {}): void {
  const warn = options.warn ?? defaultWarn;
  ensurePrivateDir(dirname(file), { warn });
  if (existsSync(file)) narrowFile(file, warn);
  else closeSync(openSync(file, "a", PRIVATE_FILE_MODE));
  for (const suffix of SQLITE_SIBLINGS) narrowFile(`${file}${suffix}`, warn);
}

/** At start: the files of `files` that exist (and their SQLite siblings and data folders) made private, with warnings. */
export function narrowExistingPrivateFiles(files: readonly string[], warn: Warn = defaultWarn): void {
  for (const file of files) if (existsSync(file)) ensurePrivateFile(file, { warn });
}
