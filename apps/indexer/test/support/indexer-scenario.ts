/**
 * The indexer integration suite's harness: the package's own `start` on a local chain, and the scenario it indexes
 * (humans minting on World ID 3.0 and 4.0 at set times, a second wallet, transfers, a voucher payout).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseEther, type Address } from "viem";
import { startIndexer as startIndexerProcess, type Service } from "@oro/dev-stack";
import type { StreakResponse } from "../../src/api/types";
import { chainActions, startLocalChain, type LocalChain } from "../../scripts/support/local-chain";

export const WAIT = 3_600;

/** One indexer run: the package's own `start` (launcher, then Ponder) on a fresh PGlite root and a free port. */
export interface IndexerRun {
  baseUrl: string;
  pgliteRoot: string;
  service: Service;
  get<T>(pathAndQuery: string): Promise<{ status: number; body: T }>;
}

/** What the suite started, stopped in reverse order at its end (stopAll). */
const started: { stop(): Promise<void> }[] = [];
const tempDirs: string[] = [];

/** A local chain the suite stops at its end. */
export async function startChain(): Promise<LocalChain> {
  const chain = await startLocalChain();
  started.push(chain);
  return chain;
}

/** Stops every indexer and chain the suite started, and deletes their data. */
export async function stopAll(): Promise<void> {
  for (const process of started.reverse()) await process.stop();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

/**
 * Starts the indexer and waits until it has indexed `lastEventBlock`. /ready alone means the backfill (up to
 * 30 blocks below the tip) is done; the newest blocks follow in live indexing, and Ponder's /status only
 * advances on blocks that carry events, so the wait is for the block of the newest event.
 */
export async function startIndexer(chain: LocalChain, lastEventBlock: number, pgliteRoot?: string): Promise<IndexerRun> {
  const root = pgliteRoot ?? mkdtempSync(path.join(tmpdir(), "oro-indexer-test-"));
  if (!pgliteRoot) tempDirs.push(root);
  const indexer = await startIndexerProcess({
    rpcUrl: chain.rpcUrl,
    pgliteRoot: root,
    env: { PONDER_LOG_LEVEL: "info" },
    onStarted: (service) => started.push(service),
  });
  const { service, url: baseUrl } = indexer;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = (await (await fetch(`${baseUrl}/status`)).json()) as Record<string, { block: { number: number } }>;
    if ((status.development?.block.number ?? 0) >= lastEventBlock) break;
    if (Date.now() > deadline) throw new Error(`indexer did not reach block ${lastEventBlock}: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    pgliteRoot: root,
    service,
    async get<T>(pathAndQuery: string) {
      const response = await fetch(`${baseUrl}${pathAndQuery}`);
      return { status: response.status, body: (await response.json()) as T };
    },
  };
}

/** The address's streak, asked again until `shows` holds or `timeoutMs` passes (live indexing takes a moment). */
export async function streakOnceIt(run: IndexerRun, address: Address, shows: (streak: StreakResponse) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const streak = (await run.get<StreakResponse>(`/streaks/${address}`)).body;
    if (shows(streak) || Date.now() >= deadline) return streak;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface Scenario {
  accounts: { owner: Address; alice: Address; bob: Address; carol: Address; alice2: Address; dave: Address; erin: Address; heidi: Address; ivy: Address };
  /** World ID 4.0: Heidi's session after she moved from 3.0; Ivy's, a human new under 4.0. */
  heidiSession: bigint;
  ivySession: bigint;
  /** The scenario's clock: T0 is the first mint, every other time is relative to it. */
  T0: number;
  lastEventAt: number;
  lastEventBlock: number;
  /** The mints the chain held before the scenario (the deployment's). */
  mintsBefore: number;
}

/** Plays the scenario on `chain`, then pushes every event past Ponder's 30-block finality window. */
export async function playScenario(chain: LocalChain): Promise<Scenario> {
  const actions = chainActions(chain);
  const [owner, , alice, bob, carol, alice2, dave, erin, heidi, ivy] = chain.accounts;
  if (!owner || !alice || !bob || !carol || !alice2 || !dave || !erin || !heidi || !ivy) throw new Error("the local chain has too few accounts");
  const accounts = { owner, alice, bob, carol, alice2, dave, erin, heidi, ivy };
  const mintsBefore = (await actions.oro.getEvents.Minted({}, { fromBlock: 0n })).length;

  await actions.setWaitBetweenMints(owner, WAIT);
  const T0 = (await actions.latestTimestamp()) + 100;
  const at = async <T>(timestamp: number, action: () => Promise<T>) => {
    await actions.setNextBlockTimestamp(timestamp);
    return action();
  };
  await at(T0, () => actions.mint("alice", alice));
  await at(T0 + 1, () => actions.mint("bob", bob));
  await at(T0 + 2, () => actions.mint("carol", carol));
  await at(T0 + 3, () => actions.mint("heidi", heidi)); // a 3.0 human…
  const ivySession = await at(T0 + 4, () => actions.enrol("ivy", ivy)); // a human new under World ID 4.0: the first claim
  await at(T0 + WAIT, () => actions.mint("alice", alice)); // one wait later: streak 2
  const heidiSession = await at(T0 + WAIT + 3, () => actions.moveToWorldId4("heidi", heidi)); // …moves to 4.0…
  await at(T0 + WAIT + 4, () => actions.claimWithSession(heidiSession, heidi)); // …and claims with her session: streak 2
  await at(T0 + WAIT + 5, () => actions.claimWithSession(ivySession, ivy)); // Ivy's second day: streak 2
  await at(T0 + 2 * WAIT + 2, () => actions.mint("bob", bob)); // 2 × wait + 1 s after: restarts at 1
  await at(T0 + 3 * WAIT, () => actions.mint("alice", alice)); // exactly 2 × wait later: streak 3
  await at(T0 + 3 * WAIT + 2, () => actions.mint("bob", bob)); // one wait later: 2
  await at(T0 + 3 * WAIT + 10, () => actions.setAmountPerMint(owner, parseEther("0.25")));
  await at(T0 + 4 * WAIT, () => actions.mint("alice", alice2)); // same human, second wallet: streak 4
  await at(T0 + 4 * WAIT + 10, () => actions.transfer(alice, dave, parseEther("0.1")));
  await at(T0 + 4 * WAIT + 15, () => actions.transfer(dave, alice2, parseEther("0.1"))); // dave back to zero
  await at(T0 + 4 * WAIT + 16, () => actions.mint("erin", erin)); // erin's wallet: erin mints first…
  await at(T0 + 4 * WAIT + 17, () => actions.mint("frank", erin)); // …then frank and grace mint to it
  await at(T0 + 4 * WAIT + 18, () => actions.mint("grace", erin));
  const voucherClaim = await at(T0 + 4 * WAIT + 20, () =>
    actions.claimVoucher({ account: bob, amount: parseEther("1"), nonce: 7n }, carol),
  );
  // Push every event past Ponder's 30-block finality window, so the backfill covers all of them.
  await actions.mineEmptyBlocks(31);
  return { accounts, heidiSession, ivySession, T0, lastEventAt: T0 + 4 * WAIT + 20, lastEventBlock: Number(voucherClaim.blockNumber), mintsBefore };
}
