import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { sessionPasswords } from "@/lib/bff/platform/config-session";
import { SqliteRevocationStore } from "@/lib/bff/platform/revocations";
import { MirrorStore } from "@/lib/mirror";

import { ensurePrivateFile, narrowExistingPrivateFiles } from "./private-files";

// Issue 24 item 5: the files under .data/ hold every tenant's rows and the sessions' secrets. Real SQLite files under
// the usual umask (022, which leaves new files 0644 and folders 0755 unless the code says otherwise).

const mode = (path: string) => statSync(path).mode & 0o777;

let root: string;
let umask: number;
beforeAll(() => {
  umask = process.umask(0o022);
  root = mkdtempSync(join(tmpdir(), "ffd-private-"));
});
afterAll(() => {
  process.umask(umask);
  rmSync(root, { recursive: true, force: true });
});

/** A fresh working folder (0755, like a checkout) whose `.data` does not exist yet. */
function checkout(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  chmodSync(dir, 0o755);
  return dir;
}

describe("the dashboard's files on disk are owner-only", () => {
  it("the mirror's SQLite file, its -wal and -shm are 0600 in a 0700 .data", async () => {
    const data = join(checkout("mirror"), ".data");
    const path = join(data, "mirror.db");
    const store = await MirrorStore.open({ path });
    try {
      await store.upsertTransactions("cust-1", [], Date.now()); // a write: the WAL exists now
      expect(existsSync(`${path}-wal`)).toBe(true);
      expect(mode(data)).toBe(0o700);
      expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    } finally {
      await store.close();
    }
  });

  it("a mirror left readable by others (0644 files in a 0755 .data) is narrowed at open, with a warning", async () => {
    const data = join(checkout("wide"), ".data");
    mkdirSync(data, { mode: 0o755 });
    const path = join(data, "mirror.db");
    await (await MirrorStore.open({ path, warn: () => undefined })).close();
    for (const file of [path, `${path}-wal`]) {
      writeFileSync(file, "", { flag: "a" });
      chmodSync(file, 0o644);
    }
    chmodSync(data, 0o755);
    const warnings: string[] = [];
    const store = await MirrorStore.open({ path, warn: (m) => warnings.push(m) });
    await store.close();
    expect([mode(data), mode(path)]).toEqual([0o700, 0o600]);
    if (existsSync(`${path}-wal`)) expect(mode(`${path}-wal`)).toBe(0o600);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\.data was mode 0755 .*made it owner-only \(0700\)/),
        expect.stringMatching(/mirror\.db was mode 0644 .*made it owner-only \(0600\)/),
      ]),
    );
  });

  it("the signed-out sessions' file (SESSION_DB) and its WAL are 0600 in a 0700 .data", async () => {
    const data = join(checkout("sessions"), ".data");
    const path = join(data, "sessions.db");
    const store = new SqliteRevocationStore(path);
    try {
      await store.revoke("sid-1", Date.now() + 60_000);
      expect(mode(data)).toBe(0o700);
      expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    } finally {
      store.close();
    }
  });

  it("the generated session secret is 0600 in a 0700 .data; a wider .data found at start is narrowed", () => {
    const cwd = checkout("secret");
    const warnings: string[] = [];
    const local = { cwd, warn: (m: string) => warnings.push(m) };
    sessionPasswords({}, { host: "127.0.0.1", isSandbox: true }, local, []);
    expect([mode(join(cwd, ".data")), mode(join(cwd, ".data/session-secret"))]).toEqual([0o700, 0o600]);
    chmodSync(join(cwd, ".data"), 0o755);
    sessionPasswords({}, { host: "127.0.0.1", isSandbox: true }, local, []);
    expect(mode(join(cwd, ".data"))).toBe(0o700);
    expect(warnings.at(-1)).toMatch(/\.data was mode 0755/);
  });

  it("at start, existing database files are narrowed even when this run does not open them", () => {
    const data = join(checkout("start"), ".data");
    mkdirSync(data, { mode: 0o755 });
    const path = join(data, "mirror.db");
    writeFileSync(path, "", { mode: 0o644 });
    const warnings: string[] = [];
    narrowExistingPrivateFiles([path, join(data, "absent.db")], (m) => warnings.push(m));
    expect([mode(data), mode(path), existsSync(join(data, "absent.db"))]).toEqual([0o700, 0o600, false]);
    expect(warnings).toHaveLength(2);
  });

  it("a relative path inside .data (MIRROR_PATH=.data/x/mirror.db) counts as the dashboard's own folder", () => {
    const cwd = process.cwd();
    process.chdir(checkout("relative"));
    try {
      mkdirSync(".data/x", { recursive: true, mode: 0o755 });
      chmodSync(".data/x", 0o755);
      ensurePrivateFile(".data/x/mirror.db", { warn: () => undefined });
      expect([mode(".data/x"), mode(".data/x/mirror.db")]).toEqual([0o700, 0o600]);
    } finally {
      process.chdir(cwd);
    }
  });

  it("a folder that is not the dashboard's own (MIRROR_PATH elsewhere) is not changed: a warning says what to do", () => {
    const shared = checkout("shared-folder");
    const warnings: string[] = [];
    ensurePrivateFile(join(shared, "mirror.db"), { warn: (m) => warnings.push(m) });
    expect([mode(shared), mode(join(shared, "mirror.db"))]).toEqual([0o755, 0o600]);
    expect(warnings).toEqual([expect.stringMatching(/can be read by other users .*chmod 700/)]);
  });
});
