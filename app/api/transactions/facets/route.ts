import { route } from "@/lib/bff/http/route";
import { transactionFacets } from "@/lib/bff/transactions/transaction-facets";

export const GET = route(transactionFacets);
