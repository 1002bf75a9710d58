import "server-only";

import { RedisSyncLock } from "@/lib/mirror";

import { cache } from "../platform/cache";
import { now } from "../platform/clock";
import { getConfig } from "../platform/config";
import { logger } from "../platform/log";
import type { MirrorGate } from "../platform/mirror-access";
import { sharedRedis } from "../platform/redis";
import { revocations } from "../platform/revocations";
import { fleetApi, requestContext } from "../platform/upstream";
import { MirrorService } from "./service";

const holder = globalThis as typeof globalThis & { __ffdMirror?: MirrorService };

/** The process's mirror service over the configuration, the shared upstream client and the session revocations. */
export function mirrorService(): MirrorService {
  if (!holder.__ffdMirror) {
    const { mirror, upstream, session } = getConfig();
    const redis = sharedRedis();
    holder.__ffdMirror = new MirrorService({
      config: mirror,
      client: fleetApi(),
      windowMs: upstream.windowMs,
      idleMs: session.idleMs,
      absoluteMs: session.absoluteMs,
      now,
      // With REDIS_URL one instance syncs a customer at a time; without it the service's in-process lock.
      ...(redis
        ? {
            lock: new RedisSyncLock(redis, {
              onLost: (customer, reason) => {
                logger().warn({ customer, reason }, "sync lease renewal failed");
              },
            }),
          }
        : {}),
      endSessions: async (sessions, keyHash) => {
        for (const { sid, untilMs } of sessions) await revocations().revoke(sid, untilMs);
        cache().forget(keyHash);
      },
      warn: (fields, message) => {
        logger().warn(fields, message);
      },
      // Started inside a request (sign-in, a page), the sync must not count as that request's upstream calls.
      detach: (fn) => requestContext.exit(fn),
    });
  }
  return holder.__ffdMirror;
}

/** The gate of the process's mirror service (./service.ts): scope, proven live, enabled, a head sync done. */
export const mirrorFor: MirrorGate = (session) => mirrorService().gate(session);
