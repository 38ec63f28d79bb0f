import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { SignInButton } from "../session";
import { useSession } from "../session";
import { PollCard } from "./PollCard";
import { usePolls, useVote, voteErrorOf, type VoteError } from "./use-polls";
import "./polls.css";

/** Open polls (vote, change the vote) and closed ones (results only), in the user's language. */
export function PollsScreen() {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const locale = i18n.resolvedLanguage ?? "en";
  const user = useSession();
  const address = user?.address ?? null;
  const polls = usePolls(locale, address);
  const vote = useVote(locale, address);
  const [failure, setFailure] = useState<{ pollId: string; error: VoteError } | null>(null);
  const pending = vote.isPending ? vote.variables : undefined;

  const onVote = (pollId: string) => (optionId: string) => {
    setFailure(null);
    vote.mutate({ pollId, optionId }, { onError: (error) => setFailure({ pollId, error: voteErrorOf(error) }) });
  };

  return (
    <section className="page polls">
      <h1 className="page__title">{t("polls.title")}</h1>
      {!user && (
        <>
          <p className="page__body">{t("polls.signInToVote")}</p>
          <SignInButton />
        </>
      )}
      {polls.isPending ? (
        <p className="page__body" aria-busy="true">{t("common.loading")}</p>
      ) : polls.isError ? (
        <p className="field-error" role="alert">{t("polls.loadError")}</p>
      ) : polls.data.length === 0 ? (
        <p className="page__body">{t("polls.none")}</p>
      ) : (
        polls.data.map((poll) => (
          <PollCard
            key={poll.id}
            poll={poll}
            onVote={user ? onVote(poll.id) : null}
            pendingOptionId={pending?.pollId === poll.id ? pending.optionId : null}
            error={failure?.pollId === poll.id ? failure.error : null}
          />
        ))
      )}
    </section>
  );
}
