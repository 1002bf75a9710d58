import { route } from "@/lib/bff/http/route";
import { exportProgress } from "@/lib/bff/transactions/export-progress";

export const GET = route(exportProgress);
