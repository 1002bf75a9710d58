import { publicRoute, route } from "@/lib/bff/operation-route";
import { getSessionInfo, signOut } from "@/lib/bff/operations/session-info";
import { signIn } from "@/lib/bff/operations/sign-in";

export const POST = publicRoute(signIn);
export const GET = route(getSessionInfo);
export const DELETE = route(signOut);
