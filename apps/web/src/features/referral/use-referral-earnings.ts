import { useInfiniteQuery, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo } from "react";
import type { Address } from "viem";
import { InvalidPaymentTypeError, type ReferralEarnings, type ReferredUser } from "../../lib/api";
import { useServices } from "../../lib/services";
import { sortInvites } from "./sort-invites";

export const referralEarningsKey = (address: Address | null) => ["referral-earnings", address] as const;

/** The loaded pages of the earnings answer; a page is asked for with the previous page's cursor (null: the first). */
export type EarningsPages = InfiniteData<ReferralEarnings, string | null>;

/** An invite's identity across pages: its voucher, else the invited user (an auto-paid reward has no voucher). */
export const inviteKey = (invite: ReferredUser) => (invite.claimableSignature ? `v:${invite.claimableSignature.message.nonce}` : `u:${invite.userId}`);

/**
 * What the user earned from invites, a page at a time (the API's pages follow the spec's order); used on /share only,
 * so the query runs only there. The totals and the referee's reward come from the first page; `invites` are the
 * loaded pages' invites, each once, in the spec's order.
 */
export function useReferralEarnings(address: Address | null) {
  const { api } = useServices();
  const query = useInfiniteQuery({
    queryKey: referralEarningsKey(address),
    enabled: address !== null,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      if (!address) throw new Error("Sign in first");
      return api.getReferralEarnings(address, pageParam === null ? { forceBustCache: false } : { forceBustCache: false, cursor: pageParam });
    },
    getNextPageParam: (last) => last.nextCursor,
    // An answer the app cannot read will not read better on a retry.
    retry: (failures, error) => !(error instanceof InvalidPaymentTypeError) && failures < 2,
    // A refetch of an infinite query asks for every loaded page again: not on every return to the window for
    // someone who has scrolled through thousands of invites. A claim refreshes the first page itself.
    refetchOnWindowFocus: false,
  });
  const pages = query.data?.pages;
  const invites = useMemo(() => (pages ? mergeInvites(pages) : []), [pages]);
  // The person's own invite waits for their first claim to be seen on chain (the API activates it within seconds
  // to a minute): the reward for being invited is on its way, so the first page is read again (through the API's
  // cache, which the activation clears) until it comes, while the screen is open and in view.
  const refereeRewardPending = pages?.[0]?.refereeRewardPending ?? false;
  const refreshFirstPage = useRefreshFirstEarningsPage(address);
  useEffect(() => {
    if (!refereeRewardPending) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") refreshFirstPage({ bypassCache: false });
    }, REFEREE_REWARD_POLL_MS);
    return () => window.clearInterval(timer);
  }, [refereeRewardPending, refreshFirstPage]);
  return { ...query, first: pages?.[0], invites };
}

/** How often the share screen reads its first page again while the person's own invite reward is on its way. */
export const REFEREE_REWARD_POLL_MS = 5_000;

/** The invites of every loaded page, each once (a page read after a change may repeat one), in the spec's order. */
export function mergeInvites(pages: readonly ReferralEarnings[]): ReferredUser[] {
  const seen = new Set<string>();
  const merged: ReferredUser[] = [];
  for (const page of pages) {
    for (const invite of page.usersReferred) {
      const key = inviteKey(invite);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(invite);
    }
  }
  return sortInvites(merged);
}

/**
 * Reloads the first page (past the API's cache after a reward claim), keeping the pages loaded after it: the
 * totals and the first invites are fresh, and an invite that left the first page (claimed now) stays in view.
 */
export function useRefreshFirstEarningsPage(address: Address | null) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useCallback(({ bypassCache }: { bypassCache: boolean }) => {
    if (!address) return;
    void api
      .getReferralEarnings(address, { forceBustCache: bypassCache })
      .then((first) => {
        queryClient.setQueryData<EarningsPages>(referralEarningsKey(address), (data) => {
          const [previous, ...later] = data?.pages ?? [];
          if (!data || !previous) return { pages: [first], pageParams: [null] };
          const fresh = new Set(first.usersReferred.map(inviteKey));
          const left = previous.usersReferred.filter((invite) => !fresh.has(inviteKey(invite)));
          return { pages: [{ ...first, usersReferred: [...first.usersReferred, ...left] }, ...later], pageParams: data.pageParams };
        });
      })
      .catch(() => undefined);
  }, [address, api, queryClient]);
}
