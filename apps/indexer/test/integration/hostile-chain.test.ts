import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeAbiParameters, encodeEventTopics, getAbiItem, getAddress, toHex, zeroAddress, type AbiEvent, type Address, type Hex } from "viem";
import { deployments, oroAbi, referralClaimAbi } from "@oro/clients";
import { freePort, startService, waitForHttpOk, type Service } from "@oro/dev-stack";
import { SyntheticChain, startSyntheticRpc, type SyntheticRpcServer } from "../../scripts/support/synthetic-chain";
import type { IndexingHealthResponse, StatsResponse, StreakResponse } from "../../src/api/types";

// The real Ponder and handlers on a chain that serves what the contracts' ABI allows but an honest chain never emits —
// the enrolment with seed 0 that stopped the indexer for good, a session mint nobody enrolled, a count and a wait no
// column holds, a voucher paid twice, text with NUL — and then an honest mint: everything is indexed, the unreadable is
// in `anomaly`, and the honest mint after it shows. On PGlite (PostgreSQL's own column ranges, compiled to WASM).
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const local = deployments[31337];
const ORO = local.contracts.Oro.address;
const CLAIM = local.contracts.ReferralClaim.address;
const UINT256_MAX = 2n ** 256n - 1n;
const alice = getAddress("0x00000000000000000000000000000000000a11ce");
const bob = getAddress("0x0000000000000000000000000000000000000b0b");

/** A log of `eventName` with `args`, encoded as the contract would emit it. */
function logOf(address: Address, abi: typeof oroAbi | typeof referralClaimAbi, eventName: string, args: Record<string, unknown>) {
  const item = getAbiItem({ abi: abi as typeof oroAbi, name: eventName as "Transfer" }) as AbiEvent;
  const data = item.inputs.filter((input) => !input.indexed);
  return {
    address,
    topics: encodeEventTopics({ abi: [item], eventName: item.name, args }) as Hex[],
    data: data.length === 0 ? ("0x" as Hex) : encodeAbiParameters(data, data.map((input) => args[input.name ?? ""]) as never),
  };
}

const oro = (eventName: string, args: Record<string, unknown>) => logOf(ORO, oroAbi, eventName, args);
const claim = (eventName: string, args: Record<string, unknown>) => logOf(CLAIM, referralClaimAbi, eventName, args);

let rpc: SyntheticRpcServer;
let chain: SyntheticChain;
let ponder: Service | undefined;
let base: string;
const dataDir = mkdtempSync(path.join(tmpdir(), "oro-hostile-"));

beforeAll(async () => {
  const honest = { mints: 20, humans: 10, perBlock: 10, v4Every: 2, tail: 40, livePerBlock: 1, liveIntervalMs: 2_000, blockTime: 2 };
  const firstTailBlock = 5 + Math.ceil(honest.mints / honest.perBlock);
  chain = new SyntheticChain({
    ...honest,
    extraLogs: new Map([
      [
        firstTailBlock,
        [
          // The attack of issue 36: an enrolment with seed 0, then its session's mint.
          oro("WorldId4Enrolled", { receiver: bob, human: 77n, sessionId: 78n, sessionSeed: 0n, movedFrom: 0n }),
          oro("Transfer", { from: zeroAddress, to: bob, value: 10n ** 18n }),
          oro("MintedWithSession", { receiver: bob, sessionId: 78n, amount: 10n ** 18n, numOfMints: 1n }),
          // A session mint nobody enrolled, and a 3.0 mint whose count no integer column holds.
          oro("MintedWithSession", { receiver: bob, sessionId: 79n, amount: 1n, numOfMints: 1n }),
          oro("Minted", { receiver: bob, nullifierHash: 80n, amount: 1n, numOfMints: UINT256_MAX }),
        ],
      ],
      [
        firstTailBlock + 1,
        [
          claim("VoucherClaimed", { account: alice, nonce: 5n, amount: UINT256_MAX, submitter: alice }),
          claim("VoucherClaimed", { account: bob, nonce: 5n, amount: UINT256_MAX, submitter: bob }),
          oro("ExternalNullifierUpdated", { oldExternalNullifierHash: 1n, newExternalNullifierHash: 2n, appId: "app\u0000", action: "claim\u0000" }),
          oro("WaitBetweenMintsUpdated", { oldWaitBetweenMints: 86_400n, newWaitBetweenMints: UINT256_MAX }),
          oro("WaitBetweenMintsUpdated", { oldWaitBetweenMints: UINT256_MAX, newWaitBetweenMints: 86_400n }),
        ],
      ],
      // After all of it, an honest 3.0 mint to a new wallet.
      [firstTailBlock + 2, [oro("Transfer", { from: zeroAddress, to: alice, value: 10n ** 18n }), oro("Minted", { receiver: alice, nullifierHash: 81n, amount: 10n ** 18n, numOfMints: 1n })]],
    ]),
  });
  rpc = await startSyntheticRpc(chain);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PONDER_TELEMETRY_DISABLED: "true",
    PONDER_LOG_LEVEL: "warn",
    PORT: String(port),
    LOCAL_RPC_URL: rpc.url,
    INDEXER_CHAIN_ID: "31337",
    DATABASE_URL: "",
    PGLITE_DIRECTORY: dataDir,
    INDEXER_POLLING_INTERVAL_MS: "1000",
  };
  ponder = startService("ponder", path.join(packageDir, "node_modules/.bin/ponder"), ["start", "--schema", "hostile", "--port", String(port)], { cwd: packageDir, env });
  await waitForHttpOk(`${base}/ready`, 200_000, ponder);
});

afterAll(async () => {
  await ponder?.stop();
  await rpc.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = async <T>(route: string) => (await fetch(`${base}${route}`)).json() as Promise<T>;
const sql = async <T>(query: string) => {
  const body = JSON.stringify({ json: { sql: query, params: [] } });
  return ((await (await fetch(`${base}/sql/db?sql=${encodeURIComponent(body)}`)).json()) as { rows: T[] }).rows;
};

describe("the indexer on a chain that emits what no honest chain does", () => {
  it("indexes past every such event and then the honest mint after them", async () => {
    const streak = await get<StreakResponse>(`/streaks/${alice}`);
    expect(streak).toMatchObject({ nullifierHash: toHex(81n, { size: 32 }), numOfMints: 1, currentStreak: 1 });
    const stats = await get<StatsResponse>("/stats");
    // 20 honest mints, the seed-0 session's mint, the out-of-range 3.0 mint and the honest one; not the orphan.
    expect(stats).toMatchObject({ mints: 23, referralPayouts: 1, referralPaidOut: UINT256_MAX.toString(), waitBetweenMints: 86_400 });
    const health = await get<IndexingHealthResponse>("/health/indexing");
    expect(health).toMatchObject({ state: "current", lagBlocks: 0 });
  });

  it("records what it could not read, one anomaly each", async () => {
    const rows = await sql<{ kind: string; event: string }>("select kind, event from anomaly order by id");
    expect(rows).toEqual([
      { kind: "unreadable_session_seed", event: "Oro:WorldId4Enrolled" },
      { kind: "orphan_mint", event: "Oro:MintedWithSession" },
      { kind: "value_out_of_range", event: "Oro:Minted" },
      { kind: "voucher_paid_twice", event: "ReferralClaim:VoucherClaimed" },
      { kind: "text_with_nul", event: "Oro:ExternalNullifierUpdated" },
      { kind: "text_with_nul", event: "Oro:ExternalNullifierUpdated" },
      { kind: "value_out_of_range", event: "Oro:WaitBetweenMintsUpdated" },
    ]);
    const [session] = await sql<{ idkit_session_id: string | null; problem: string | null }>("select idkit_session_id, problem from world_id_session where session_id = 78");
    expect(session).toMatchObject({ idkit_session_id: null, problem: expect.stringMatching(/seed/) as unknown });
  });
});
