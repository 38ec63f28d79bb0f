import { z } from "zod";
import type { Poll, Prisma, PrismaClient, User } from "../../generated/prisma/client.js";
import { ApiError, isUniqueViolation } from "../../lib/errors.js";
import { nullifierHashToHex } from "@oro/clients";
import { IndexerUnavailableError, type IndexerClient } from "../indexer/index.js";
import { firstMintFromIndexer, humanBehindWallet } from "../referrals/index.js";
import { LOCALES, localised, type Locale } from "../../lib/locales.js";

/** A text per language; en is required and is the fallback. */
export const translationsSchema = z
  .object({ en: z.string().trim().min(1).max(300) })
  .extend(Object.fromEntries(LOCALES.filter((locale) => locale !== "en").map((locale) => [locale, z.string().trim().min(1).max(300).optional()])))
  .strict();

export type Translations = { en: string } & Partial<Record<Locale, string>>;

/** What the operator writes to create a poll (scripts/polls.ts). */
export const pollInputSchema = z.object({
  question: translationsSchema,
  options: z.array(translationsSchema).min(2).max(10),
  opensAt: z.iso.datetime({ offset: true }).optional(),
  closesAt: z.iso.datetime({ offset: true }).optional(),
});

export type PollInput = z.input<typeof pollInputSchema>;

export type PollStatus = "open" | "closed";

export interface PollView {
  id: string;
  question: string;
  status: PollStatus;
  opensAt: string;
  closesAt: string | null;
  options: { id: string; label: string; votes: number }[];
  totalVotes: number;
  /** The option the caller's vote is on (signed in, and has voted), else null. */
  myVote: string | null;
}

type PollWithOptions = Prisma.PollGetPayload<{ include: { options: true } }>;

/** A poll with its options' vote counts: one row per option, which the database's triggers keep (poll_vote_totals). */
const withVoteTotals = { options: { include: { voteTotals: { select: { votes: true } } } } } satisfies Prisma.PollInclude;
type PollWithVotes = Prisma.PollGetPayload<{ include: typeof withVoteTotals }>;

/** What places a poll in the listing's order. */
type PollPlace = Pick<Poll, "id" | "opensAt" | "closesAt">;
type PollPhase = "open" | "closed";

/**
 * The polls after `last` in the listing's order, among those of its phase: open ones by closing time (open-ended
 * ones last), closed ones most recently closed first; newest opened first among those closing at the same time,
 * then by id.
 */
function pollsAfter(last: PollPlace, phase: PollPhase): Prisma.PollWhereInput {
  const closingWithIt = { closesAt: last.closesAt, OR: [{ opensAt: { lt: last.opensAt } }, { opensAt: last.opensAt, id: { gt: last.id } }] };
  if (last.closesAt === null) return closingWithIt;
  const closingLater = phase === "open" ? { OR: [{ closesAt: { gt: last.closesAt } }, { closesAt: null }] } : { closesAt: { lt: last.closesAt } };
  return { OR: [closingLater, closingWithIt] };
}

export type PollService = ReturnType<typeof createPollService>;

/**
 * Polls: open while `opensAt <= now < closesAt` (no `closesAt`: open until closed), closed afterwards; polls
 * not yet open are not listed.
 *
 * One vote per verified human: the voter is the human behind the signed-in wallet (humanBehindWallet: the
 * one remembered for the user, else the World ID nullifier hash of the wallet's first mint, as the indexer
 * saw it), the same human every referral rule judges. Minting ORO needs a World ID proof that the contract
 * verifies on chain, so such a hash stands for one verified human, and the same human voting from a second
 * wallet changes the one vote instead of adding another. An address that never received a mint cannot vote.
 */
export function createPollService(options: { prisma: PrismaClient; indexer: IndexerClient }) {
  const { prisma, indexer } = options;

  const statusOf = (poll: { closesAt: Date | null }, now: Date): PollStatus =>
    poll.closesAt !== null && poll.closesAt <= now ? "closed" : "open";

  async function present(polls: PollWithVotes[], locale: Locale, user: User | undefined, now = new Date()): Promise<PollView[]> {
    const ids = polls.map((poll) => poll.id);
    // The caller's vote is their human's, cast from whichever of their wallets.
    const human = user?.nullifierHash ? nullifierHashToHex(BigInt(user.nullifierHash)) : undefined;
    const mine = user
      ? await prisma.pollVote.findMany({
          where: { pollId: { in: ids }, OR: [{ userId: user.id }, ...(human ? [{ nullifierHash: human }] : [])] },
          select: { pollId: true, optionId: true },
        })
      : [];
    const myVoteOf = new Map(mine.map((vote) => [vote.pollId, vote.optionId]));
    return polls.map((poll) => {
      const pollOptions = [...poll.options]
        .sort((a, b) => a.position - b.position)
        .map((option) => ({ id: option.id, label: localised(option.label as Translations, locale), votes: option.voteTotals?.votes ?? 0 }));
      return {
        id: poll.id,
        question: localised(poll.question as Translations, locale),
        status: statusOf(poll, now),
        opensAt: poll.opensAt.toISOString(),
        closesAt: poll.closesAt?.toISOString() ?? null,
        options: pollOptions,
        totalVotes: pollOptions.reduce((sum, option) => sum + option.votes, 0),
        myVote: myVoteOf.get(poll.id) ?? null,
      };
    });
  }

  /** Open polls first (closing soonest first), then closed ones (most recently closed first). */
  async function list(locale: Locale, user?: User): Promise<PollView[]> {
    const now = new Date();
    const polls = await prisma.poll.findMany({ where: { opensAt: { lte: now } }, include: withVoteTotals, take: 100, orderBy: { opensAt: "desc" } });
    const views = await present(polls, locale, user, now);
    const rank = (view: PollView) => (view.status === "open" ? 0 : 1);
    const closing = (view: PollView) => (view.closesAt ? Date.parse(view.closesAt) : Number.MAX_SAFE_INTEGER);
    return views.sort((a, b) => rank(a) - rank(b) || (rank(a) === 0 ? closing(a) - closing(b) : closing(b) - closing(a)));
  }

  /**
   * Every poll open by now, in the order of `list` (pollsAfter), for the operator: `pageSize` polls a statement, each
   * page strictly after the last poll of the one before, so memory holds one page however many polls there are.
   */
  async function* everyPoll(locale: Locale, pageSize = 100): AsyncGenerator<PollView> {
    const now = new Date();
    const phases = [
      { phase: "open", where: { OR: [{ closesAt: null }, { closesAt: { gt: now } }] }, byClosing: { sort: "asc", nulls: "last" } },
      { phase: "closed", where: { closesAt: { lte: now } }, byClosing: { sort: "desc" } },
    ] as const satisfies { phase: PollPhase; where: Prisma.PollWhereInput; byClosing: Prisma.SortOrderInput }[];
    for (const { phase, where, byClosing } of phases) {
      let last: PollPlace | undefined;
      for (;;) {
        const page = await prisma.poll.findMany({
          where: { AND: [{ opensAt: { lte: now } }, where, last ? pollsAfter(last, phase) : {}] },
          orderBy: [{ closesAt: byClosing }, { opensAt: "desc" }, { id: "asc" }],
          include: withVoteTotals,
          take: pageSize,
        });
        yield* await present(page, locale, undefined, now);
        last = page.at(-1);
        if (page.length < pageSize) break;
      }
    }
  }

  /** The voter: the human behind the wallet, as every rule of the API judges it (remembered on the user). */
  async function humanOf(user: User): Promise<string> {
    let human;
    try {
      human = await humanBehindWallet(prisma, user, () => firstMintFromIndexer(indexer, user));
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      throw new ApiError(503, "HUMAN_CHECK_UNAVAILABLE", "cannot check that you are a verified human right now: try again shortly");
    }
    if (!human) {
      throw new ApiError(403, "NOT_VERIFIED_HUMAN", "only verified humans vote: claim ORO once with World ID first");
    }
    return human;
  }

  async function vote(user: User, pollId: string, optionId: string, locale: Locale): Promise<PollView> {
    const poll = await prisma.poll.findUnique({ where: { id: pollId }, include: { options: true } });
    const now = new Date();
    if (!poll || poll.opensAt > now) throw new ApiError(404, "POLL_NOT_FOUND", "there is no such poll");
    if (statusOf(poll, now) === "closed") throw new ApiError(409, "POLL_CLOSED", "this poll is closed: votes can no longer change");
    if (!poll.options.some((option) => option.id === optionId)) {
      throw new ApiError(400, "OPTION_NOT_FOUND", "this option does not belong to the poll");
    }
    // Remembered on the user by humanOf, so that the poll list finds this human's vote.
    const nullifierHash = await humanOf(user);
    const data = { optionId, userId: user.id };
    const where = { pollId_nullifierHash: { pollId, nullifierHash } };
    try {
      await prisma.pollVote.upsert({ where, create: { pollId, nullifierHash, ...data }, update: data });
    } catch (error) {
      // Two first votes of one human at once: the other insert won; this one changes it.
      if (!isUniqueViolation(error)) throw error;
      await prisma.pollVote.update({ where, data });
    }
    // Read again: the totals now count this vote.
    const counted = await prisma.poll.findUnique({ where: { id: pollId }, include: withVoteTotals });
    const [view] = counted ? await present([counted], locale, user) : [];
    if (!view) throw new Error("poll vanished");
    return view;
  }

  async function create(input: PollInput): Promise<PollWithOptions> {
    const parsed = pollInputSchema.parse(input);
    const opensAt = parsed.opensAt ? new Date(parsed.opensAt) : new Date();
    const closesAt = parsed.closesAt ? new Date(parsed.closesAt) : null;
    if (closesAt && closesAt <= opensAt) throw new Error("closesAt must come after opensAt");
    return prisma.poll.create({
      data: {
        question: parsed.question,
        opensAt,
        closesAt,
        options: { create: parsed.options.map((label, position) => ({ position, label })) },
      },
      include: { options: true },
    });
  }

  /** Closes a poll now (votes are kept, and can no longer change). */
  async function close(pollId: string): Promise<boolean> {
    const { count } = await prisma.poll.updateMany({
      where: { id: pollId, OR: [{ closesAt: null }, { closesAt: { gt: new Date() } }] },
      data: { closesAt: new Date() },
    });
    return count === 1;
  }

  return { list, everyPoll, vote, create, close };
}
