import { hash, randomBytes } from "node:crypto";
import { SIGN_IN_STATEMENT } from "@oro/clients";
import { parseSiweMessage, verifySiweMessage } from "@worldcoin/minikit-js/siwe";
import { getAddress, isHex, recoverMessageAddress, type Address, type PublicClient } from "viem";
import { hotStatement, type Database } from "../../db/database.js";
import { Prisma, type NoncePurpose, type User } from "../../generated/prisma/client.js";
import { wallClock, type ChainClock } from "../chain/index.js";
import { deleteInBatches, PURGE_BATCH } from "../../lib/delete-in-batches.js";
import { ApiError } from "../../lib/errors.js";
import { randomString } from "../../lib/random.js";
import type { TtlCache } from "../../lib/ttl-cache.js";
import { hasContractCode } from "./signatures.js";

/** Nonces are alphanumeric (ERC-4361) and long enough not to be guessed. */
export const NONCE_LENGTH = 24;

export interface SignInInput {
  message: string;
  signature: string;
  address: string;
  username?: string | undefined;
}

export interface SessionGrant {
  token: string;
  expiresAt: Date;
  user: User;
}

export interface AuthServiceOptions {
  database: Database;
  publicClient: PublicClient;
  nonceTtlMs: number;
  sessionTtlMs: number;
  /** Which sign-in messages are ours: their domain (the URI on the same host), chain and age. */
  siwe: { domains: readonly string[]; chainIds: readonly number[]; maxAgeMs: number };
  /**
   * The clock a sign-in message's Issued At is checked against: the wall clock, or the chain's when it runs
   * ahead (the World App simulator moves the phone's clock with the local chain, and MiniKit dates the message
   * with the phone's clock).
   */
  clock?: ChainClock;
  /**
   * Sessions looked up recently, by token hash (their expiry is still checked on every use). Only given when
   * a sign-out in another process reaches this one (`onSignOut` tells the others).
   */
  sessionCache?: TtlCache<{ user: User; expiresAt: Date }> | undefined;
  onSignOut?: (tokenHash: string) => Promise<void>;
}

/** What signIn hands out: 32 random bytes in base64url. Anything else is no session of ours, refused without a lookup. */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function isSessionToken(token: string): boolean {
  return SESSION_TOKEN.test(token);
}

/** Every signed-in request hashes its token: the one-shot hash, a third of createHash's cost for a short input. */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

type SiweMessage = ReturnType<typeof parseSiweMessage>;

export type AuthService = ReturnType<typeof createAuthService>;

/** A session and its user, by token hash: every request with a session that is not in this process's copy. */
const SESSION = hotStatement<
  [tokenHash: string],
  { id: string; address: string; username: string | null; nullifierHash: string | null; createdAt: number; updatedAt: number; expiresAt: number }
>(
  "session_user",
  `SELECT "user"."id", "user"."address", "user"."username", "user"."nullifier_hash" AS "nullifierHash",
          round(extract(epoch FROM "user"."created_at") * 1000)::float8 AS "createdAt",
          round(extract(epoch FROM "user"."updated_at") * 1000)::float8 AS "updatedAt",
          round(extract(epoch FROM "session"."expires_at") * 1000)::float8 AS "expiresAt"
     FROM "session" JOIN "user" ON "user"."id" = "session"."user_id"
    WHERE "session"."token_hash" = $1`,
);

async function findSession(database: Database, tokenHash: string): Promise<{ user: User; expiresAt: Date } | undefined> {
  const [row] = await database.run(SESSION, [tokenHash]);
  if (!row) return undefined;
  const user: User = {
    id: row.id,
    address: row.address,
    username: row.username,
    nullifierHash: row.nullifierHash,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  };
  return { user, expiresAt: new Date(row.expiresAt) };
}

export function createAuthService(options: AuthServiceOptions) {
  const { database } = options;
  const { prisma } = database;

  async function issueNonce(purpose: NoncePurpose, address?: Address) {
    const nonce = randomString(NONCE_LENGTH);
    const expiresAt = new Date(Date.now() + options.nonceTtlMs);
    await prisma.authNonce.create({ data: { nonce, purpose, address: address?.toLowerCase() ?? null, expiresAt } });
    return { nonce, expiresAt };
  }

  /** Marks the nonce used; false when it is unknown, of another purpose or address, expired or already used. */
  async function consumeNonce(nonce: string, purpose: NoncePurpose, address?: Address): Promise<boolean> {
    const { count } = await prisma.authNonce.updateMany({
      where: {
        nonce,
        purpose,
        consumedAt: null,
        expiresAt: { gt: new Date() },
        ...(address ? { address: address.toLowerCase() } : {}),
      },
      data: { consumedAt: new Date() },
    });
    return count === 1;
  }

  async function describeUnusableNonce(nonce: string, purpose: NoncePurpose): Promise<ApiError> {
    const row = await prisma.authNonce.findUnique({ where: { nonce } });
    if (!row || row.purpose !== purpose) return new ApiError(401, "NONCE_UNKNOWN", "this nonce was not issued by the API");
    if (row.consumedAt) return new ApiError(401, "NONCE_USED", "this nonce was already used: request a new one");
    return new ApiError(401, "NONCE_EXPIRED", "this nonce has expired: request a new one");
  }

  /** Verifies a MiniKit walletAuth result (EOA or EIP-1271 smart-contract wallet) and opens a session. */
  async function signIn(input: SignInInput): Promise<SessionGrant> {
    let message: SiweMessage;
    try {
      message = parseSiweMessage(input.message);
    } catch (error) {
      throw new ApiError(400, "SIWE_MESSAGE_INVALID", `not a sign-in message: ${(error as Error).message}`);
    }
    const { nonce } = message;
    const pending = await prisma.authNonce.findFirst({
      where: { nonce, purpose: "sign_in", consumedAt: null, expiresAt: { gt: new Date() } },
    });
    if (!pending) throw await describeUnusableNonce(nonce, "sign_in");
    const foreign = await foreignMessage(message);
    if (foreign) {
      // A message made for another site, chain or time: its nonce (perhaps fetched by a phishing site) is spent.
      await consumeNonce(nonce, "sign_in");
      throw foreign;
    }

    const address = getAddress(input.address);
    await verifyWalletSignature(input, address, nonce);

    const username = input.username?.trim() || undefined;
    const lower = address.toLowerCase();
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(Date.now() + options.sessionTtlMs);
    // One transaction: a failure after the signature was accepted (the database) leaves the nonce usable;
    // a replay of the same sign-in finds it used.
    const user = await prisma.$transaction(async (tx) => {
      const { count } = await tx.authNonce.updateMany({
        where: { nonce, purpose: "sign_in", consumedAt: null, expiresAt: { gt: new Date() } },
        data: { consumedAt: new Date() },
      });
      if (count !== 1) throw await describeUnusableNonce(nonce, "sign_in");
      const signedIn = await tx.user.upsert({
        where: { address: lower },
        create: { address: lower, username: username ?? null },
        update: username ? { username } : {},
      });
      await tx.session.create({ data: { tokenHash: hashToken(token), userId: signedIn.id, expiresAt } });
      return signedIn;
    });
    return { token, expiresAt, user };
  }

  /** Why a parsed sign-in message is not one for us (domain, URI, chain, Issued At), or undefined. */
  async function foreignMessage(message: SiweMessage): Promise<ApiError | undefined> {
    const { domains, chainIds, maxAgeMs } = options.siwe;
    // MiniKit 2 writes EIP-4361's optional scheme ("https://host wants you…") and its parser keeps it in `domain`.
    const domain = message.domain.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
    // EIP-4361 defines version 1 only; a message claiming another is not one we know how to read.
    if (message.version !== "1") {
      return new ApiError(401, "SIWE_VERSION_INVALID", `sign-in message version ${String(message.version)} is not EIP-4361's version 1`);
    }
    if (!domains.includes(domain)) {
      return new ApiError(401, "SIWE_DOMAIN_MISMATCH", `sign-in messages for ${domain} are not accepted here`);
    }
    let uriHost: string | undefined;
    try {
      uriHost = new URL(message.uri).host;
    } catch {
      uriHost = undefined;
    }
    if (uriHost !== domain) {
      return new ApiError(401, "SIWE_URI_MISMATCH", "the sign-in message's URI is not on its domain");
    }
    if (!chainIds.includes(Number(message.chain_id))) {
      return new ApiError(401, "SIWE_CHAIN_MISMATCH", `sign-in messages for chain ${message.chain_id} are not accepted here`);
    }
    const issuedAt = Date.parse(message.issued_at);
    const clock = options.clock ?? wallClock;
    let now = clock.now().getTime();
    // Dated ahead of what the clock last knew: the chain may have just been moved (the phone follows it); ask it.
    if (issuedAt > now + 60_000) now = (await clock.current()).getTime();
    // A minute of clock skew ahead; behind, as long as a nonce lives.
    if (Number.isNaN(issuedAt) || issuedAt > now + 60_000 || issuedAt < now - maxAgeMs) {
      return new ApiError(401, "SIWE_ISSUED_AT_INVALID", "the sign-in message was not issued in the last few minutes");
    }
    return undefined;
  }

  async function verifyWalletSignature(input: SignInInput, address: Address, nonce: string): Promise<void> {
    if (!isHex(input.signature)) throw new ApiError(401, "SIGNATURE_INVALID", "the signature is not hex");
    const recovered = await recoverMessageAddress({ message: input.message, signature: input.signature }).catch(() => undefined);
    // Not this EOA's signature: it can still be a smart-contract wallet's (EIP-1271), which needs code.
    if (recovered !== address && !(await hasContractCode(options.publicClient, address))) {
      throw new ApiError(401, "SIGNATURE_INVALID", "the signature was not made by this address");
    }
    let valid: boolean;
    try {
      const result = await verifySiweMessage(
        { status: "success", message: input.message, signature: input.signature, address, version: 2 },
        nonce,
        SIGN_IN_STATEMENT,
        undefined,
        options.publicClient,
      );
      valid = result.isValid;
    } catch (error) {
      throw new ApiError(401, "SIGNATURE_INVALID", `sign-in refused: ${(error as Error).message}`);
    }
    if (!valid) throw new ApiError(401, "SIGNATURE_INVALID", "the wallet contract did not accept the signature");
  }

  /**
   * The user of a session token, or null. `beforeLookup` runs only when the session must be read from the database (it
   * is not in this process's copy) and may throw to refuse the request instead.
   */
  async function userForToken(token: string, beforeLookup?: () => void): Promise<User | null> {
    if (!isSessionToken(token)) return null;
    const tokenHash = hashToken(token);
    const cached = options.sessionCache?.get(tokenHash);
    if (!cached) beforeLookup?.();
    const session = cached ?? (await findSession(database, tokenHash));
    if (!session || session.expiresAt <= new Date()) return null;
    if (!cached) options.sessionCache?.set(tokenHash, { user: session.user, expiresAt: session.expiresAt });
    return session.user;
  }

  async function signOut(token: string): Promise<void> {
    const tokenHash = hashToken(token);
    await prisma.session.deleteMany({ where: { tokenHash } });
    options.sessionCache?.delete(tokenHash);
    await options.onSignOut?.(tokenHash);
  }

  /** Drops nonces and sessions that expired more than a day ago (kept a while to explain refusals), `batch` a statement. */
  async function purgeExpired(batch = PURGE_BATCH): Promise<number> {
    const expired = Prisma.sql`"expires_at" < ${new Date(Date.now() - 86_400_000)}`;
    const nonces = await deleteInBatches(prisma, "auth_nonce", expired, batch);
    const sessions = await deleteInBatches(prisma, "session", expired, batch);
    return nonces + sessions;
  }

  return { issueNonce, consumeNonce, describeUnusableNonce, signIn, userForToken, signOut, purgeExpired };
}
