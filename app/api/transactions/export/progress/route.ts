import { route } from "@/lib/bff/operation-route";
import { exportProgress } from "@/lib/bff/operations/export-progress";

export const GET = route(exportProgress);
