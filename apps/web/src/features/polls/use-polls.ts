import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Address } from "viem";
import { ApiRequestError, type Poll } from "../../lib/api";
import { apiErrorMessageKey, type ApiErrorMessageKey } from "../../lib/api-errors";
import { useServices } from "../../lib/services";

export const pollsKey = (locale: string, address: Address | null) => ["polls", locale, address] as const;

/** The polls in the user's language (with their own vote when signed in), open ones first. */
export function usePolls(locale: string, address: Address | null) {
  const { api } = useServices();
  return useQuery({ queryKey: pollsKey(locale, address), queryFn: () => api.getPolls(locale) });
}

export const UNKNOWN_VOTE_ERROR = "polls.errors.UNKNOWN";
/** The i18n key of a failed vote's text. */
export type VoteError = ApiErrorMessageKey | typeof UNKNOWN_VOTE_ERROR;

/** The error catalogue's text for the API's refusal (a closed poll, a gone option...), else the generic message. */
export function voteErrorOf(error: unknown): VoteError {
  return apiErrorMessageKey(error) ?? UNKNOWN_VOTE_ERROR;
}

/** Votes, or changes the vote; the answer (the poll with its new counts) replaces the poll in the list. */
export function useVote(locale: string, address: Address | null) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ pollId, optionId }: { pollId: string; optionId: string }) => {
      if (!address) throw new ApiRequestError(401, "NOT_CONNECTED", "Sign in to vote");
      return api.votePoll(address, pollId, optionId, locale);
    },
    onSuccess: (poll) => {
      queryClient.setQueryData<Poll[]>(pollsKey(locale, address), (polls) => polls?.map((each) => (each.id === poll.id ? poll : each)));
    },
    onError: (error) => {
      // A poll that closed (or changed) meanwhile: show it as the API has it now.
      if (voteErrorOf(error) !== UNKNOWN_VOTE_ERROR) void queryClient.invalidateQueries({ queryKey: pollsKey(locale, address) });
    },
  });
}
