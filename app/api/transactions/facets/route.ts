import { route } from "@/lib/bff/operation-route";
import { transactionFacets } from "@/lib/bff/operations/transaction-facets";

export const GET = route(transactionFacets);
