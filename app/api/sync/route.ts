import { route } from "@/lib/bff/http/route";
import { syncNow } from "@/lib/bff/sync/sync-now";
import { syncStatus } from "@/lib/bff/sync/sync-status";

export const GET = route(syncStatus);
export const POST = route(syncNow);
