/**
 * The reference figures and targets of the project's benchmarks (shared/TARGETS.md), in one place: every bench
 * prints its figures beside these and decides "met" by them, so that a target changes here and nowhere else.
 * Times are milliseconds unless the name says otherwise; gas is execution gas (gasUsed minus intrinsic) unless it says
 * gasUsed.
 */
export const BENCH_REFERENCES = {
  contracts: {
    /** The production token this project replaces, with real-proof calldata (324 bytes, 323 non-zero), no-op verifier. */
    reference: {
      firstMint: { gasUsed: 88_489n, execution: 62_317n },
      repeatMint: { gasUsed: 54_289n, execution: 28_117n },
      secondHumanToHolder: { gasUsed: 71_389n, execution: 45_217n },
    },
    /** The daily repeat mint's execution gas at most this share of the reference's (0.9×: ≤ 25,305). */
    repeatMintShareOfReference: 0.9,
    /** The first mints no higher than they were when the targets were set (near the floor the settable external nullifier leaves). */
    firstMintMax: 59_436n,
    secondHumanToHolderMax: 42_336n,
    /** World ID 4.0: the daily 4.0 claim within this multiple of the same run's 3.0 repeat mint. */
    worldId4ClaimShareOfRepeatMint: 1.3,
  },
  indexer: {
    /** Ponder 0.16 alone on one thread, here: a reference, not a target. */
    ponderEventsPerCpuSecond: 7_000,
    /** Our handlers cost at most this share over a handler-less Ponder run on the same synthetic chain. */
    handlerOverheadMax: 0.1,
    /** Live indexing of 2 s blocks of 1,000 mints keeps the head lag within this many blocks. */
    liveLagBlocksMax: 2,
    liveBlockSeconds: 2,
    liveMintsPerBlock: 1_000,
    productionHumans: 2_000_000,
  },
  api: {
    /** The cached hot routes at 50 connections: at least this share of a bare Fastify route's throughput. */
    cachedShareOfCeiling: 0.5,
    /** Every hot route's p99, cached or not, at the production size and the busiest minute's rate. */
    p99Ms: 25,
    connections: 50,
    /** The busiest minute's rate of app opens at production size. */
    appOpensPerSecond: 400,
    productionSize: { users: 2_000_000, referrals: 1_000_000, bigReferrerInvites: 50_000, mints: 10_000_000 },
    /**
     * CPU per request "flat" from 10 k to 2 M users: the largest size's CPU µs per request at most this multiple of
     * the smallest size's (what a shared 2-core machine's noise leaves room for; an index scan turning into a table
     * scan costs far more).
     */
    cpuPerRequestGrowthMax: 1.5,
  },
  reminders: {
    dueInTheSameHour: 1_000_000,
    sentWithinSeconds: 600,
    replicas: 2,
  },
  web: {
    /** The JavaScript a first visit to / downloads, gzip. */
    initialJsGzipKiB: 150,
    /** Largest Contentful Paint of / for a new visitor, slow 4G with 4× CPU: target and the figures seen before. */
    lcpSlow4gMax: 1_000,
    lcpSlow4gReference: 956,
    lcpUnthrottledReference: 472,
    /** The app's own screen in the page, slow 4G with 4× CPU, as seen before (the static first paint comes first). */
    appScreenSlow4gReference: 2_566,
    /** World's mini app guideline: the first load within 2–3 s. */
    worldFirstLoadMax: 3_000,
    /** A returning, verified user sees the ready slider or the countdown within this, slow 4G with 4× CPU. */
    returningUserReadyMax: 1_000,
    returningUserReference: { median: 1_440, range: "1,300–1,660 ms" },
  },
  devStack: {
    /** `pnpm start` to ready, on a fresh clone and again. */
    startSecondsMax: 60,
  },
} as const;
