import { publicRoute, route } from "@/lib/bff/http/route";
import { getSessionInfo, signOut } from "@/lib/bff/session/session-info";
import { signIn } from "@/lib/bff/session/sign-in";

export const POST = publicRoute(signIn);
export const GET = route(getSessionInfo);
export const DELETE = route(signOut);
