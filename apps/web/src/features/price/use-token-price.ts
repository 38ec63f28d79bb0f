import { useQuery } from "@tanstack/react-query";
import { useServices } from "../../lib/services";
import type { TokenPrice } from "../../lib/api";

/** ORO's price from the API's token-price call, keyed there by the lower-case token address. */
export function useTokenPrice(): { price: TokenPrice | null; loading: boolean } {
  const { api, chain } = useServices();
  const query = useQuery({
    queryKey: ["token-price"],
    queryFn: async () => {
      const token = chain.tokenAddress();
      const prices = await api.getTokenPrices([token]);
      return prices[token.toLowerCase()] ?? null;
    },
  });
  return { price: query.data ?? null, loading: query.isPending };
}
