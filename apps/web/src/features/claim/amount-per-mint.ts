import { queryOptions } from "@tanstack/react-query";
import { env } from "../../env";
import type { ChainService } from "../../lib/services";

/**
 * The chain's amount per mint, as one query: the claim's success screen and the halving announcement share its key
 * and its read (each sets its own `enabled` and retries).
 */
export function amountPerMintQuery(chain: Pick<ChainService, "readAmountPerMint">) {
  return queryOptions({ queryKey: ["amount-per-mint", env.chainId] as const, queryFn: () => chain.readAmountPerMint() });
}
