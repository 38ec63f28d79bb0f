import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { useTranslation } from "react-i18next";
import type { Poll } from "../../lib/api";
import type { VoteError } from "./use-polls";

interface PollCardProps {
  poll: Poll;
  /** Null when signed out: the results show, the options cannot be chosen. */
  onVote: ((optionId: string) => void) | null;
  /** The option being sent, while the vote is on its way. */
  pendingOptionId: string | null;
  error: VoteError | null;
}

/** A poll with its options as counts and percentages; open polls take a vote (or a change of vote), closed ones are read-only. */
export function PollCard({ poll, onVote, pendingOptionId, error }: PollCardProps) {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const locale = i18n.resolvedLanguage ?? "en";
  const open = poll.status === "open";
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 });
  const share = (votes: number) => (poll.totalVotes === 0 ? 0 : votes / poll.totalVotes);
  const headingId = `poll-${poll.id}`;
  return (
    <article className={`card poll poll--${poll.status}`} aria-labelledby={headingId}>
      <div className="poll__head">
        <h2 id={headingId} className="poll__question">{poll.question}</h2>
        <span className={`poll__badge poll__badge--${poll.status}`}>{open ? t("polls.open") : t("polls.closed")}</span>
      </div>
      <ul className="poll__options">
        {poll.options.map((option) => {
          const mine = poll.myVote === option.id;
          const value = share(option.votes);
          const content = (
            <>
              <span className="poll__fill" style={{ width: `${Math.round(value * 100)}%` }} aria-hidden="true" />
              <span className="poll__label">
                {option.label}
                {mine && <span className="poll__mine"> · {t("polls.yourVote")}</span>}
              </span>
              <span className="poll__count">
                {percent.format(value)} · {t("polls.votes", { count: option.votes, formatted: new Intl.NumberFormat(locale).format(option.votes) })}
              </span>
            </>
          );
          return (
            <li key={option.id}>
              {open && onVote ? (
                <button
                  type="button"
                  className={`poll__option${mine ? " poll__option--mine" : ""}`}
                  aria-pressed={mine}
                  disabled={pendingOptionId !== null}
                  aria-busy={pendingOptionId === option.id}
                  onClick={() => {
                    if (!mine) onVote(option.id);
                  }}
                >
                  {content}
                </button>
              ) : (
                <div className={`poll__option poll__option--static${mine ? " poll__option--mine" : ""}`}>{content}</div>
              )}
            </li>
          );
        })}
      </ul>
      <p className="poll__total">
        {t("polls.total", { count: poll.totalVotes, formatted: new Intl.NumberFormat(locale).format(poll.totalVotes) })}
        {open && onVote && poll.myVote && <> · {t("polls.changeHint")}</>}
      </p>
      {error && (
        <p className="field-error" role="alert">
          {t(error)}
        </p>
      )}
    </article>
  );
}
