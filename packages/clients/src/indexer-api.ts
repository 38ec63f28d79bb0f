/**
 * The indexer's HTTP answers, written once: the indexer's routes answer these (apps/indexer/src/api/types.ts
 * re-exports them) and the API's indexer client reads them by these (`IndexerApi` from "@oro/clients").
 * Conventions: times are unix seconds (numbers, null when there is none); token amounts are wei as decimal
 * strings; addresses are lower-case 0x strings; nullifier hashes are 0x plus 64 lower-case hex digits.
 */

/**
 * GET /streaks/:address — the streak of the address's owner: the human whose mint it received first (a later
 * mint by someone else does not make it theirs). The streak itself is the human's, whichever wallets they claim to.
 */
export interface StreakResponse {
  address: `0x${string}`;
  /** The human shown, or null when the address never received a mint. */
  nullifierHash: `0x${string}` | null;
  /** 0 once the streak has lapsed (now > streakExpiresAt). */
  currentStreak: number;
  longestStreak: number;
  /** The human's mint count, as the contract's nullifierHashMintData holds it. */
  numOfMints: number;
  lastMintedAt: number | null;
  /** lastMintedAt + waitBetweenMints: when the contract lets this human mint again. */
  nextMintAt: number | null;
  /** lastMintedAt + 2 × waitBetweenMints: the last moment a mint still continues the streak. */
  streakExpiresAt: number | null;
}

/**
 * Where an event stands in chain order: Ponder's event id (its checkpoint), a string of digits that sorts as the chain's
 * events do and begins with the block's unix time (10 digits). The API follows mints and payouts by it (`after=`).
 */
export type ChainCursor = string;

/** One mint received by an address. */
export interface Claim {
  /** The mint's place in chain order. */
  cursor: ChainCursor;
  transactionHash: `0x${string}`;
  blockNumber: number;
  logIndex: number;
  timestamp: number;
  receiver: `0x${string}`;
  nullifierHash: `0x${string}`;
  /** wei */
  amount: string;
  /** The human's mint count after this mint. */
  numOfMints: number;
  /** The human's streak right after this mint. */
  streak: number;
}

/** `order` of GET /streaks/:address/claims: `newest` first (the default) or `oldest` first. */
export type ClaimsOrder = "newest" | "oldest";

/**
 * GET /streaks/:address/claims?limit=N&order=newest|oldest — newest first unless `order=oldest` (then the
 * wallet's first mint leads), limit 1..100 (default 10).
 */
export interface ClaimsResponse {
  claims: Claim[];
}

/**
 * GET /mints?after=C&limit=N — every mint after the cursor C (from the first without one) in chain order, limit 1..1000
 * (default 1000): the API follows them to decide a pending referral as soon as the mint it waits for is indexed.
 */
export interface MintsResponse {
  mints: Claim[];
}

/** GET /world-id/:address: the World ID 4.0 session of the wallet's human, if they enrolled. */
export interface WorldIdStatusResponse {
  address: `0x${string}`;
  session: {
    /** IDKit's whole session id, for `IDKit.proveSession`. */
    idkitSessionId: string;
    sessionId: `0x${string}`;
    human: `0x${string}`;
    movedFrom: `0x${string}` | null;
    enrolledAt: number;
  } | null;
  /** The wallet's human is a 3.0 human who moved (their 3.0 path is closed). */
  movedToWorldId4: boolean;
}

/** GET /streaks/:address/humans — every human who ever minted to the address (sorted, each once). */
export interface WalletHumansResponse {
  humans: `0x${string}`[];
}

/** GET /stats */
export interface StatsResponse {
  chainId: number;
  /** wei */
  totalSupply: string;
  /** Accounts with a balance above zero. */
  holders: number;
  humans: number;
  mints: number;
  /** wei per mint, as the contract has it now. */
  amountPerMint: string;
  /** seconds */
  waitBetweenMints: number;
  killed: boolean;
  referralPayouts: number;
  /** wei */
  referralPaidOut: string;
  /** Timestamp of the newest indexed event (null before the first). */
  lastEventAt: number | null;
}

/** GET /humans/:nullifierHash — for the API's referral checks. */
export interface HumanResponse {
  nullifierHash: `0x${string}`;
  hasMinted: boolean;
  numOfMints: number;
  firstMintedAt: number | null;
  lastMintedAt: number | null;
  /** The address this human's latest mint went to. */
  lastReceiver: `0x${string}` | null;
  currentStreak: number;
  longestStreak: number;
}

/** One referral voucher paid by the claim contract. */
export interface ReferralPayout {
  /** The payout's place in chain order. */
  cursor: ChainCursor;
  /** The voucher nonce (decimal string: a uint256). */
  nonce: string;
  account: `0x${string}`;
  /** wei */
  amount: string;
  submitter: `0x${string}`;
  blockNumber: number;
  timestamp: number;
  transactionHash: `0x${string}`;
}

/**
 * GET /referral-payouts/:address — the vouchers paid to an address, newest first. GET /referral-payouts?after=C&limit=N
 * — every payout after the cursor C (from the first without one) in chain order, limit 1..1000 (default 1000): the API
 * follows them to record which vouchers were paid.
 */
export interface ReferralPayoutsResponse {
  payouts: ReferralPayout[];
}

/** GET /referral-payouts/nonces/:nonce — whether a voucher nonce has been paid. */
export interface ReferralNonceResponse {
  nonce: string;
  claimed: boolean;
  payout: ReferralPayout | null;
}

/**
 * GET /referral-payouts/nonces?nonces=N1,N2,… (1 to 100 decimal nonces) — which of these voucher nonces have been
 * paid: one request for a whole page of vouchers.
 */
export interface ReferralNoncesResponse {
  /** The nonces asked about that the claim contract has paid (decimal strings), in ascending order. */
  claimed: string[];
}

/**
 * GET /health/indexing — whether the indexer keeps up with the chain: 200 while `current`, 503 otherwise. `behind`: an
 * event of the indexed contracts has waited longer than the indexer's INDEXER_BEHIND_AFTER_SECONDS (it stopped, or
 * lags), or the chain's RPC does not answer; `backfilling`: Ponder has not finished its backfill (its /ready). A chain
 * with no new event is current however old the newest indexed block: only events wait.
 */
export interface IndexingHealthResponse {
  state: "current" | "behind" | "backfilling";
  /** One line saying why. */
  reason: string;
  /** The newest block the indexer has indexed an event of (null before the first). */
  indexedBlock: number | null;
  /** The chain's newest block (null when its RPC does not answer). */
  chainHead: number | null;
  /** From the oldest block holding an event not yet indexed to the chain's head: 0 when none waits, null when unknown. */
  lagBlocks: number | null;
  lagSeconds: number | null;
}

/** Every 400 answer. */
export interface ErrorResponse {
  error: string;
}
