import { route } from "@/lib/bff/operation-route";
import { syncNow } from "@/lib/bff/operations/sync-now";
import { syncStatus } from "@/lib/bff/operations/sync-status";

export const GET = route(syncStatus);
export const POST = route(syncNow);
