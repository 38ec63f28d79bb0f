import { bigint, hex, index, int8, integer, onchainEnum, onchainTable, onchainView, sql } from "ponder";

// Times are unix seconds and block numbers plain integers (int8 read as JS numbers); token amounts are
// wei (numeric(78), JS bigint); nullifier hashes are 0x + 64 lower-case hex digits, except the two keys Ponder must
// predict from the events (human, world_id4_human), which are the events' uint256 values.

/**
 * Every human the chain names, by human key (README: one human, one key): a World ID 3.0 human from their first mint,
 * a human new under World ID 4.0 from their enrolment. The state columns are the human's 3.0 state as of their latest
 * 3.0 mint; from the enrolment on a human's state lives on their `world_id4_human` row instead (`worldId4SessionId`;
 * a human who moved takes theirs there), see that table. `human_state` below (GraphQL's `human`) reads the current
 * state of either kind.
 */
export const human = onchainTable("human", (t) => ({
  /**
   * The human key as the contract's uint256 (the API answers it as 0x + 64 hex digits), for the reason
   * `world_id4_human` is keyed by its uint256: Ponder then predicts each Minted's lookup from the event and loads
   * the rows in batches once the table no longer fits its cache. Keyed by the hex form, every lookup went to the
   * database one row at a time from ~958k humans on (the cache cliff, README).
   */
  nullifierHash: t.bigint().primaryKey(),
  /** 3.0 mints; 0 for a human new under 4.0. */
  numOfMints: t.integer().notNull(),
  firstMintedAt: t.int8({ mode: "number" }),
  lastMintedAt: t.int8({ mode: "number" }),
  currentStreak: t.integer().notNull(),
  longestStreak: t.integer().notNull(),
  lastReceiver: t.hex(),
  /** The World ID 4.0 session that holds this human's state from their enrolment on, else null. */
  worldId4SessionId: t.bigint(),
}));

/**
 * A World ID 4.0 session as enrolled, and the human it belongs to. The human key is the one every per-human rule uses:
 * the 3.0 nullifier hash of a human who moved from 3.0 (their history keeps its key), else their enrolment nullifier.
 * Written once, at the enrolment; the human's state from then on is on their `world_id4_human` row.
 */
export const worldIdSession = onchainTable("world_id_session", (t) => ({
  /** The session id as the contract's uint256 (the API answers it as 0x + 64 hex digits). */
  sessionId: t.bigint().primaryKey(),
  /**
   * IDKit's whole session id (`session_<commitment><oprf seed>`), which the app needs to ask for session proofs; null
   * when the enrolment's seed is not an OPRF seed (`problem` says so): nobody can prove such a session.
   */
  idkitSessionId: t.text(),
  /** Why this session cannot be used as recorded (the `anomaly` table has the event), else null. */
  problem: t.text(),
  human: t.hex().notNull(),
  enrolmentNullifier: t.hex().notNull(),
  /** The 3.0 nullifier hash of a human who moved, else null. */
  movedFrom: t.hex(),
  receiver: t.hex().notNull(),
  enrolledAt: t.int8({ mode: "number" }).notNull(),
  blockNumber: t.int8({ mode: "number" }).notNull(),
}), (table) => ({
  // GET /world-id/:address looks a session up by its human, or by the wallet it enrolled with.
  byHuman: index().on(table.human),
  byReceiver: index().on(table.receiver),
}));

/**
 * A World ID 4.0 human's state as of their latest mint (the `human` columns), by their session, from the enrolment
 * on: a human who moved brings their 3.0 row's state here once (a moved human can no longer mint with 3.0), and every
 * session mint updates it. A session mint thus reads and writes only this row, which Ponder predicts from the event:
 * the `human` row would be a lookup by a key no event argument names, one database read per 4.0 mint once `human` no
 * longer fits Ponder's cache (the cache cliff, README). It is as narrow as a `human` row, so that a 4.0 mint costs
 * what a 3.0 mint does (the session's identity, three times as wide, is written once and never read while indexing).
 */
export const worldId4Human = onchainTable("world_id4_human", (t) => ({
  /**
   * The session id as the contract's uint256, so that Ponder can predict each MintedWithSession's lookup and load the
   * rows in batches: keyed by a value derived from the event (its hex form), the lookup went to the database one row
   * at a time once the table left Ponder's cache, about 1 ms a mint (measured with the bench, README).
   */
  sessionId: t.bigint().primaryKey(),
  /** The human key (as in `world_id_session`), which a session mint files its mint row under. */
  human: t.hex().notNull(),
  /** As in `human`; 0 and nulls until they have minted. */
  numOfMints: t.integer().notNull(),
  firstMintedAt: t.int8({ mode: "number" }),
  lastMintedAt: t.int8({ mode: "number" }),
  currentStreak: t.integer().notNull(),
  longestStreak: t.integer().notNull(),
  lastReceiver: t.hex(),
}));

/**
 * Every human's state as of their latest mint, whichever World ID version they claim with (GraphQL's `human`, and the
 * HTTP answers' reads): a 3.0 human's from `human`, a 4.0 human's (a mover's included) from `world_id4_human`. A view,
 * so that a session mint writes only that row (the cache cliff, README) and no read ever looks in two places.
 * Its columns are declared, so that GraphQL types them as the tables' are.
 */
const fromSession = (column: string) =>
  sql.raw(`CASE WHEN s.session_id IS NULL THEN h.${column} ELSE s.${column} END AS ${column}`);
export const humanState = onchainView("human_state", {
  nullifierHash: bigint("nullifier_hash").notNull(),
  numOfMints: integer("num_of_mints").notNull(),
  firstMintedAt: int8("first_minted_at", { mode: "number" }),
  lastMintedAt: int8("last_minted_at", { mode: "number" }),
  currentStreak: integer("current_streak").notNull(),
  longestStreak: integer("longest_streak").notNull(),
  lastReceiver: hex("last_receiver"),
  worldId4SessionId: bigint("world_id4_session_id"),
}).as(
  sql`SELECT h.nullifier_hash, ${sql.join(
    ["num_of_mints", "first_minted_at", "last_minted_at", "current_streak", "longest_streak", "last_receiver"].map(fromSession),
    sql`, `,
  )}, h.world_id4_session_id FROM ${human} h LEFT JOIN ${worldId4Human} s ON s.session_id = h.world_id4_session_id`,
);

/** Every address that ever held or received ORO. */
export const account = onchainTable("account", (t) => ({
  address: t.hex().primaryKey(),
  balance: t.bigint().notNull(),
  mintsReceived: t.integer().notNull(),
  firstMintAt: t.int8({ mode: "number" }),
  lastMintAt: t.int8({ mode: "number" }),
  /**
   * The human whose mint this address received first: its owner (the first to verify and claim to it), whose
   * streak it shows. Anyone may mint to any address later; that does not make it theirs.
   */
  firstMintNullifierHash: t.hex(),
}));

/** One row per mint (a claim), with the streak it brought its human to. */
export const mint = onchainTable(
  "mint",
  (t) => ({
    id: t.text().primaryKey(),
    receiver: t.hex().notNull(),
    nullifierHash: t.hex().notNull(),
    amount: t.bigint().notNull(),
    numOfMints: t.integer().notNull(),
    streak: t.integer().notNull(),
    blockNumber: t.int8({ mode: "number" }).notNull(),
    logIndex: t.integer().notNull(),
    timestamp: t.int8({ mode: "number" }).notNull(),
    transactionHash: t.hex().notNull(),
  }),
  (table) => ({
    // A b-tree index is read both ways: it also serves a wallet's claims oldest first.
    receiverNewestFirst: index().on(table.receiver, table.blockNumber, table.logIndex),
    nullifierHashNewestFirst: index().on(table.nullifierHash, table.blockNumber, table.logIndex),
  }),
);

/** One row per referral voucher paid out by the claim contract (a nonce pays once). */
export const referralPayout = onchainTable(
  "referral_payout",
  (t) => ({
    nonce: t.bigint().primaryKey(),
    /** Ponder's event id: where the payout stands in chain order (the API follows payouts by it). */
    eventId: t.text().notNull(),
    account: t.hex().notNull(),
    amount: t.bigint().notNull(),
    submitter: t.hex().notNull(),
    blockNumber: t.int8({ mode: "number" }).notNull(),
    logIndex: t.integer().notNull(),
    timestamp: t.int8({ mode: "number" }).notNull(),
    transactionHash: t.hex().notNull(),
  }),
  (table) => ({
    accountNewestFirst: index().on(table.account, table.blockNumber, table.logIndex),
    chainOrder: index().on(table.eventId),
  }),
);

/** Totals kept current by the handlers (one row per indexed chain), so no request scans a table. */
export const stats = onchainTable("stats", (t) => ({
  chainId: t.integer().primaryKey(),
  totalSupply: t.bigint().notNull(),
  // Counters are int8: 2,000,000 mints a day pass an integer's 2^31 in three years.
  /** Accounts whose balance is above zero. */
  holders: t.int8({ mode: "number" }).notNull(),
  humans: t.int8({ mode: "number" }).notNull(),
  mints: t.int8({ mode: "number" }).notNull(),
  referralPayouts: t.int8({ mode: "number" }).notNull(),
  referralPaidOut: t.bigint().notNull(),
  /** Rows of `anomaly`: events the handlers could not read as the contracts mean them. */
  anomalies: t.int8({ mode: "number" }).notNull(),
  /** Timestamp of the newest indexed event: the chain's clock as far as the indexer knows it. */
  lastEventAt: t.int8({ mode: "number" }).notNull(),
}));

/** The contracts' settings as they stand now (one row per indexed chain). */
export const settings = onchainTable("settings", (t) => ({
  chainId: t.integer().primaryKey(),
  amountPerMint: t.bigint().notNull(),
  waitBetweenMints: t.int8({ mode: "number" }).notNull(),
  externalNullifierHash: t.bigint().notNull(),
  appId: t.text().notNull(),
  action: t.text().notNull(),
  owner: t.hex(),
  killed: t.boolean().notNull(),
  claimSigner: t.hex(),
  claimsPaused: t.boolean().notNull(),
}));

/** The ORO settings the owner can change, each with its own event. */
export const mintSetting = onchainEnum("mint_setting", ["amount_per_mint", "wait_between_mints", "external_nullifier"]);

/** Every change of a mint setting, in chain order (the constructor's initial values included). */
export const settingChange = onchainTable("setting_change", (t) => ({
  id: t.text().primaryKey(),
  setting: mintSetting("setting").notNull(),
  oldValue: t.bigint().notNull(),
  newValue: t.bigint().notNull(),
  blockNumber: t.int8({ mode: "number" }).notNull(),
  timestamp: t.int8({ mode: "number" }).notNull(),
  transactionHash: t.hex().notNull(),
}));

/**
 * What a handler could not read as the contracts mean it, one row per finding (src/lib/anomalies.ts): the event
 * was indexed as far as it could be, and the indexer went on. An honest chain records none.
 */
export const anomaly = onchainTable(
  "anomaly",
  (t) => ({
    /** The event's id, then the finding's number within it. */
    id: t.text().primaryKey(),
    kind: t.text().notNull(),
    detail: t.text().notNull(),
    /** `Contract:Event`. */
    event: t.text().notNull(),
    blockNumber: t.int8({ mode: "number" }).notNull(),
    logIndex: t.integer().notNull(),
    timestamp: t.int8({ mode: "number" }).notNull(),
    transactionHash: t.hex().notNull(),
  }),
  (table) => ({
    byKind: index().on(table.kind),
  }),
);
