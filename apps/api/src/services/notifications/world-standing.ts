import type { FastifyBaseLogger } from "fastify";
import { UNVERIFIED_APP_LIMIT, UNVERIFIED_APP_WINDOW_MS } from "./world-route.js";

/** What an operator does about each of World's refusals (developer-portal send-notification). */
const REFUSAL_ADVICE: Record<string, string> = {
  not_allowed: "the app's notifications per user per day are set to 0",
  paused: "World paused the app's notifications for 7 days: their average open rate fell below 10%",
  api_key_inactive: "the API key is inactive: activate it or set a new one",
  not_found: "World does not know the API key",
  invalid_api_key: "the API key's secret is wrong",
  invalid_app: "the API key belongs to another app",
  unauthorized: "no API key was sent",
  app_not_found: "World does not know WORLD_APP_ID",
  duplicate_app: "World lists the app twice and neither is verified",
  external_app_not_allowed: "notifications are not available for external apps",
  validation_error: "World refuses the request's content: a defect of ours",
};

export interface WorldStandingOptions {
  /** Verified, unverified, or `auto`: sent as verified until World refuses so. */
  worldVerified: boolean | "auto" | undefined;
  /** How long sending stops after World refused a request: then one is tried. */
  refusalPauseMs: number;
  log: FastifyBaseLogger;
}

export type WorldStanding = ReturnType<typeof createWorldStanding>;

/**
 * How World holds the app, as this worker has learnt from World's answers: whether it refused a request as a whole
 * (sending stops, then one reminder tries again), and whether it keeps the app to the quota of unverified apps.
 */
export function createWorldStanding(options: WorldStandingOptions) {
  const { refusalPauseMs, log } = options;
  /**
   * World refused a request as a whole (a key disabled, notifications off, the app unknown): nothing more is sent until
   * `retryAt`, then one reminder tries whether World takes them again.
   */
  let stopped: { code: string; since: Date; retryAt: number; probing: boolean } | null = null;
  /** Until when World's quota for unverified apps is kept: always when configured so, else a window after its refusal. */
  let unverifiedUntil = options.worldVerified === false ? Number.POSITIVE_INFINITY : 0;
  const keepsQuota = () => Date.now() < unverifiedUntil;

  return {
    keepsQuota,
    isStopped: () => stopped !== null,

    /**
     * Whether a lane may send: freely, or (after a refusal, once the pause is over) one reminder that probes whether
     * World takes them again, one lane at a time; else it waits.
     */
    turn(): "send" | "probe" | "wait" {
      if (!stopped) return "send";
      if (stopped.probing || Date.now() < stopped.retryAt) return "wait";
      stopped.probing = true;
      return "probe";
    },

    /** The probe's request was answered (or failed): another may probe after the next pause. */
    probeDone(): void {
      if (stopped) stopped.probing = false;
    },

    /** World took a request: sending resumes if it had stopped. */
    accepted(): void {
      if (!stopped) return;
      log.info({ code: stopped.code, since: stopped.since }, "World takes reminders again: sending resumed");
      stopped = null;
    },

    /**
     * World refused the request before sending (its code says why: `not_allowed`, `api_key_inactive`, `app_not_found`,
     * …): every request would be, until an operator acts, so sending stops, with one error line and the
     * `oro_api_reminders_stopped` gauge (alert RemindersRefusedByWorld); after `refusalPauseMs` one reminder tries again.
     */
    refused(code: string, reason: string): void {
      if (!stopped || stopped.code !== code) {
        log.error({ code, reason: reason.slice(0, 300), retryInMinutes: refusalPauseMs / 60_000 }, `World refuses reminders (${code}): sending stopped; fix the app in World's developer portal or WORLD_APP_API_KEY (${REFUSAL_ADVICE[code] ?? "see its message"})`);
      }
      stopped = { code, since: stopped?.code === code ? stopped.since : new Date(), retryAt: Date.now() + refusalPauseMs, probing: false };
    },

    /** World's quota for unverified apps refused a request: from now on for a window the batches keep within it. */
    quotaRefused(): void {
      if (!keepsQuota()) {
        log.warn({ limit: UNVERIFIED_APP_LIMIT, windowHours: UNVERIFIED_APP_WINDOW_MS / 3_600_000 }, "World limits the app to 40 reminders per 4 hours (not verified): sending within that, the rest later");
      }
      unverifiedUntil = Math.max(unverifiedUntil, Date.now() + UNVERIFIED_APP_WINDOW_MS);
    },

    /** What the metrics show of the sending: stopped by a refusal of World's (its code, since when), the quota kept. */
    sendingState(): { stopped: { code: string; since: Date } | null; keepsQuota: boolean } {
      return { stopped: stopped ? { code: stopped.code, since: stopped.since } : null, keepsQuota: keepsQuota() };
    },
  };
}
