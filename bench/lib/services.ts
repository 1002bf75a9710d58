/**
 * Debian's redis-server and PostgreSQL for the parts, registered for stopping as soon as their process exists (not
 * once ready): a Ctrl-C or a failure while one starts still stops it (bench/lib/processes.ts).
 */
import { type PostgresServer, startPostgresServer } from "@/test/postgres-server";
import { type RedisServer, startRedisServer } from "@/test/redis-server";

import { register } from "./processes";

export async function startBenchPostgres(name = "PostgreSQL"): Promise<PostgresServer> {
  let stop: () => Promise<void> = () => Promise.resolve();
  const server = await startPostgresServer({ onSpawn: (stopServer) => (stop = register(name, stopServer)) });
  return { ...server, stop: () => stop() };
}

export async function startBenchRedis(name = "redis-server"): Promise<RedisServer> {
  let stop: () => Promise<void> = () => Promise.resolve();
  const server = await startRedisServer({ onSpawn: (stopServer) => (stop = register(name, stopServer)) });
  // `crash` (a SIGKILL) goes to the server itself; a plain stop through the registry, which forgets it.
  return { ...server, stop: (options) => (options?.crash ? server.stop(options) : stop()) };
}
