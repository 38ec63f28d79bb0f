import { Prisma, type PrismaClient, type User } from "../../generated/prisma/client.js";
import { ApiError } from "../../lib/errors.js";
import { deleteInBatches, PURGE_BATCH } from "../../lib/delete-in-batches.js";
import type { PendingEnrolment } from "../../schemas/world-id.js";
import { wallClock, type ChainClock } from "../chain/chain-clock.js";

/** World's verifier refuses a proof whose expiresAtMin is more than this behind the block (its production config). */
export const VERIFIER_EXPIRY_THRESHOLD_MS = 5 * 3_600_000;
/** The app asks a uniqueness proof to outlive its action by 30 days; a credential lives about a year at most. */
export const MAX_PENDING_LIFETIME_MS = 366 * 86_400_000;

export interface PendingEnrolmentOptions {
  prisma: PrismaClient;
  /** The chain's clock when it runs ahead (a local chain moved forward): the proofs' expiry is the chain's. */
  clock?: ChainClock;
}

export type PendingEnrolmentService = ReturnType<typeof createPendingEnrolmentService>;

/**
 * The proofs of a wallet's enrolment or move that has not landed yet, kept so that a reinstall, another device or a
 * lost local copy never loses them: World App discloses the uniqueness proof once, then refuses it for a year
 * (`nullifier_replayed`). One row per wallet, overwritten; nothing else refers to it. A row is useless once the
 * verifier would refuse its uniqueness proof (5 h past its expiresAtMin): it is not answered from then on and the
 * hourly purge deletes it. The proofs are no secret: they name the wallet and the session, and only that human's
 * session proof completes them.
 */
export function createPendingEnrolmentService(options: PendingEnrolmentOptions) {
  const { prisma } = options;
  const clock = options.clock ?? wallClock;

  /** Until when the uniqueness proof can land (its expiresAtMin + the verifier's threshold). */
  function usableUntil(pending: PendingEnrolment): Date {
    return new Date(Number(BigInt(pending.uniqueness.expiresAtMin)) * 1000 + VERIFIER_EXPIRY_THRESHOLD_MS);
  }

  async function keep(user: User, pending: PendingEnrolment): Promise<void> {
    const now = clock.now().getTime();
    const until = usableUntil(pending);
    const field = "body.uniqueness.expiresAtMin";
    if (until.getTime() <= now) {
      throw new ApiError(400, "VALIDATION_ERROR", `${field}: the verifier refuses this proof from 5 hours after it`, [
        { field, rule: "expired", message: "the proof can no longer land" },
      ]);
    }
    if (until.getTime() > now + MAX_PENDING_LIFETIME_MS) {
      throw new ApiError(400, "VALIDATION_ERROR", `${field}: more than 366 days ahead`, [{ field, rule: "too_big", message: "more than 366 days ahead" }]);
    }
    const row = { kind: pending.kind, idkitSessionId: pending.idkitSessionId, proofs: proofsOf(pending), purgeAfter: until };
    await prisma.worldIdPendingEnrolment.upsert({ where: { userId: user.id }, create: { userId: user.id, ...row }, update: row });
  }

  async function read(user: User): Promise<PendingEnrolment | null> {
    const row = await prisma.worldIdPendingEnrolment.findUnique({ where: { userId: user.id } });
    if (!row || row.purgeAfter.getTime() <= clock.now().getTime()) return null;
    const proofs = row.proofs as unknown as Pick<PendingEnrolment, "uniqueness" | "worldId3">;
    return { kind: row.kind as PendingEnrolment["kind"], idkitSessionId: row.idkitSessionId, uniqueness: proofs.uniqueness, worldId3: proofs.worldId3 };
  }

  async function forget(user: User): Promise<boolean> {
    const { count } = await prisma.worldIdPendingEnrolment.deleteMany({ where: { userId: user.id } });
    return count > 0;
  }

  /** Deletes every row whose uniqueness proof can no longer land, a batch a statement. */
  function purgeUnusable(batch = PURGE_BATCH): Promise<number> {
    return deleteInBatches(prisma, "world_id_pending_enrolment", Prisma.sql`"purge_after" <= ${clock.now()}`, batch);
  }

  return { keep, read, forget, purgeUnusable };
}

function proofsOf(pending: PendingEnrolment): Prisma.InputJsonObject {
  const { uniqueness, worldId3 } = pending;
  return { uniqueness: { ...uniqueness, proof: [...uniqueness.proof] }, worldId3: worldId3 ? { ...worldId3, proof: [...worldId3.proof] } : null };
}
