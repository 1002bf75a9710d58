// A raster tile server for the e2e suite: what an operator's TILE_URL points at (no tile server on the internet is
// reachable here). It answers `/{profile}/{z}/{x}/{y}.png` with one real 256×256 PNG over real HTTP, so the
// dashboard's tile layer, attribution and CSP are exercised as in production. `PUT /{profile}/mode` with the body
// `ok` or `fail` switches that profile's tiles between served and 503 (the tile fallback's fault: an unreachable or
// broken tile server); `GET /{profile}/stats` reports how many tiles were served and refused.
//
//   node node_modules/tsx/dist/cli.mjs e2e/tile-server.ts --port 4620
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { port: { type: "string" } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65_535)
  throw new Error(`--port must be a port number; got ${String(values.port)}`);

const TILE = readFileSync(new URL("assets/test-tile.png", import.meta.url));
const TILE_PATH = /^\/([a-z]+)\/(\d{1,2})\/(-?\d+)\/(-?\d+)\.png$/;
const CONTROL_PATH = /^\/([a-z]+)\/(mode|stats)$/;

interface ProfileTiles {
  failing: boolean;
  served: number;
  refused: number;
}
const profiles = new Map<string, ProfileTiles>();
const tilesOf = (profile: string): ProfileTiles => {
  let tiles = profiles.get(profile);
  if (tiles === undefined) {
    tiles = { failing: false, served: 0, refused: 0 };
    profiles.set(profile, tiles);
  }
  return tiles;
};

const server = createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://tiles.invalid").pathname;
  if (path === "/healthz") {
    res.writeHead(204).end();
    return;
  }
  const tile = TILE_PATH.exec(path);
  if (req.method === "GET" && tile !== null) {
    const tiles = tilesOf(tile[1] ?? "");
    if (tiles.failing) {
      tiles.refused++;
      res.writeHead(503, { "Content-Type": "text/plain" }).end("tile server unavailable (e2e fault)");
      return;
    }
    tiles.served++;
    res
      .writeHead(200, {
        "Content-Type": "image/png",
        "Content-Length": String(TILE.byteLength),
        "Cache-Control": "no-store",
      })
      .end(TILE);
    return;
  }
  const control = CONTROL_PATH.exec(path);
  if (control !== null) {
    const tiles = tilesOf(control[1] ?? "");
    if (control[2] === "stats" && req.method === "GET") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(tiles));
      return;
    }
    if (control[2] === "mode" && req.method === "PUT") {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        if (body !== "ok" && body !== "fail") {
          res.writeHead(400, { "Content-Type": "text/plain" }).end('mode must be "ok" or "fail"');
          return;
        }
        Object.assign(tiles, { failing: body === "fail", served: 0, refused: 0 });
        res.writeHead(204).end();
      });
      return;
    }
  }
  res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
});

server.listen(port, "127.0.0.1");
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
