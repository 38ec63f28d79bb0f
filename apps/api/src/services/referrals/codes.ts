import { REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH } from "@oro/clients";
import { hotStatement, type Database } from "../../db/database.js";
import type { User } from "../../generated/prisma/client.js";
import { isUniqueViolation } from "../../lib/errors.js";
import { randomString } from "../../lib/random.js";
import { TtlCache } from "../../lib/ttl-cache.js";

export type ReferralCodes = ReturnType<typeof createReferralCodes>;

const CODE_OF_USER = hotStatement<[userId: string, app: string], { code: string }>(
  "referral_code_of_user",
  `SELECT "code" FROM "referral_code" WHERE "user_id" = $1 AND "app" = $2`,
);

/** Referral codes: one per user and app, created on first request, never changed. */
export function createReferralCodes(database: Database) {
  const { prisma } = database;
  /** A user's code never changes once created. */
  const codes = new TtlCache<string>(3_600_000, 100_000);

  async function findOrCreate(user: User, app: string): Promise<string> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const [existing] = await database.run(CODE_OF_USER, [user.id, app]);
      if (existing) return existing.code;
      try {
        const created = await prisma.referralCode.create({
          data: { userId: user.id, app, code: randomString(REFERRAL_CODE_LENGTH, REFERRAL_CODE_ALPHABET) },
        });
        return created.code;
      } catch (error) {
        // Either the code is taken (try another) or another request created this user's code (read it).
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw new Error("could not allocate a unique referral code");
  }

  /** The user's code for `app` (collisions retried; a concurrent creator wins). */
  async function codeForUser(user: User, app: string): Promise<string> {
    const key = `${user.id}|${app}`;
    const known = codes.get(key);
    if (known) return known;
    const code = await findOrCreate(user, app);
    codes.set(key, code);
    return code;
  }

  /** The code and its owner (case-insensitive), or null. */
  function find(code: string) {
    return prisma.referralCode.findUnique({ where: { code: code.trim().toUpperCase() }, include: { user: true } });
  }

  return { codeForUser, find };
}
