import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { vi } from "vitest";
import type { PrismaClient } from "../../src/generated/prisma/client.js";
import { LOCALES } from "../../src/lib/locales.js";
import type { RunSummary } from "../../src/services/notifications/reminders.js";
import type { TestUser } from "./referrals.js";
import { bearer } from "./siwe.js";

/** The reminders' tests send many requests as one user and from one address: the rate limits are lifted. */
export const REMINDER_TEST_ENV = { RATE_LIMIT_PER_ADDRESS: "1000", RATE_LIMIT_PER_IP: "100000" };

/** POST /api/notifications/<path>?<query>, with `user`'s session (none without a user). */
export function postNotification(app: FastifyInstance, path: string, user: TestUser | undefined, query: Record<string, string>) {
  return app.inject({
    method: "POST",
    url: `/api/notifications/${path}?${new URLSearchParams(query).toString()}`,
    ...(user ? { headers: bearer(user.token) } : {}),
  });
}

/** `post` and `runAt` of the reminders' tests, on the file's app (`app`) unless told another. */
export function reminderCalls(app: () => FastifyInstance) {
  return {
    post: (path: string, user: TestUser | undefined, query: Record<string, string>, on = app()) => postNotification(on, path, user, query),
    /** Runs the workers' step at a moment `ms` from now (only Date is faked: the database keeps its timers). */
    runAt: (ms: number, on = app()) => runService(on.services.reminders, ms),
  };
}

/** Runs the passes of reminder services at once at a moment `ms` from now (only Date is faked, for them all: the database keeps its timers). */
export async function runServices(services: { runOnce: () => Promise<RunSummary> }[], ms: number): Promise<RunSummary[]> {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + ms });
  try {
    return await Promise.all(services.map((service) => service.runOnce()));
  } finally {
    vi.useRealTimers();
  }
}

export async function runService(service: { runOnce: () => Promise<RunSummary> }, ms: number): Promise<RunSummary> {
  const [summary] = await runServices([service], ms);
  if (!summary) throw new Error("no pass");
  return summary;
}

/** `count` claim reminders due now, for new addresses (their languages in turn); returns the addresses. */
export async function dueJobs(prisma: PrismaClient, count: number): Promise<string[]> {
  const addresses = Array.from({ length: count }, () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase());
  await prisma.notificationJob.createMany({
    data: addresses.map((address, i) => ({ id: randomUUID(), kind: "oro_claim", address, locale: LOCALES[i % LOCALES.length] ?? "en", dueAt: new Date(Date.now() - 1_000) })),
  });
  return addresses;
}

/** A logger that keeps its error lines (the one an operator reads) and drops the rest. */
export function quietLogger(errors: string[]): FastifyBaseLogger {
  const logger = {
    level: "info",
    fatal: () => undefined,
    error: (_object: unknown, message?: string) => void errors.push(message ?? ""),
    warn: () => undefined,
    info: () => undefined,
    debug: () => undefined,
    trace: () => undefined,
    silent: () => undefined,
    child: () => logger,
  };
  return logger;
}
