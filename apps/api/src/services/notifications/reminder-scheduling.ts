import type { FastifyBaseLogger } from "fastify";
import type { Address } from "viem";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { ChainClock } from "../chain/index.js";
import { ApiError } from "../../lib/errors.js";
import type { Locale } from "../../lib/locales.js";
import { IndexerUnavailableError, type IndexerClient } from "../indexer/index.js";
import { CLAIM_REMINDER_KIND, STREAK_AT_RISK_KIND, upsertJob } from "./reminder-jobs.js";

export interface ScheduledReminder {
  scheduledFor: Date;
  /** A pending reminder existed and now has the new time. */
  replaced: boolean;
}

export interface ReminderSchedulingParts {
  prisma: PrismaClient;
  indexer: IndexerClient;
  clock: ChainClock;
  /** How long before a streak would lapse the nudge comes. */
  riskWindowMs: number;
  log: FastifyBaseLogger;
}

/**
 * When each address is reminded and in which language: one pending reminder per address and kind (a partial unique
 * index), so scheduling again moves it; the streak-at-risk nudge goes with the claim reminder.
 */
export function createReminderScheduling(parts: ReminderSchedulingParts) {
  const { prisma, indexer, clock, log } = parts;

  async function setLocale(address: Address, locale: Locale): Promise<void> {
    const lower = address.toLowerCase();
    await prisma.notificationPreference.upsert({ where: { address: lower }, create: { address: lower, locale }, update: { locale } });
    await prisma.notificationJob.updateMany({ where: { address: lower, status: "pending" }, data: { locale } });
  }

  /**
   * When the address's next claim opens and when its streak would lapse (the streak rule: the next claim within
   * 2 × wait of the last): the indexer's times, or from now while the last mint is not indexed yet.
   */
  async function nextClaimAt(address: Address): Promise<{ claimAt: Date; lapseAt: Date }> {
    try {
      const streak = await indexer.streak(address);
      const now = clock.now().getTime();
      if (streak.nextMintAt !== null && streak.nextMintAt * 1000 > now) {
        const lapseAt = streak.streakExpiresAt ?? streak.nextMintAt;
        return { claimAt: new Date(streak.nextMintAt * 1000), lapseAt: new Date(lapseAt * 1000) };
      }
      // The reminder is asked for right after a claim, which the indexer may not have seen yet.
      const wait = (await indexer.waitBetweenMints()) * 1000;
      return { claimAt: new Date(now + wait), lapseAt: new Date(now + 2 * wait) };
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      log.warn({ err: error }, "cannot schedule a reminder: indexer unavailable");
      throw new ApiError(503, "REMINDER_UNAVAILABLE", "cannot tell when your next claim opens right now: try again shortly");
    }
  }

  async function scheduleClaimReminder(address: Address, locale: Locale): Promise<ScheduledReminder> {
    const lower = address.toLowerCase();
    const { claimAt, lapseAt } = await nextClaimAt(address);
    await prisma.notificationPreference.upsert({ where: { address: lower }, create: { address: lower, locale }, update: { locale } });
    const row = await upsertJob(prisma, CLAIM_REMINDER_KIND, lower, locale, claimAt);
    // The nudge goes with it, moved by every claim; it is checked again against the chain when it comes due.
    await upsertJob(prisma, STREAK_AT_RISK_KIND, lower, locale, new Date(Math.max(claimAt.getTime(), lapseAt.getTime() - parts.riskWindowMs)));
    return { scheduledFor: row.due_at, replaced: !row.inserted };
  }

  return { setLocale, scheduleClaimReminder };
}
