import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ClaimsOrder, ClaimsResponse, IndexingHealthResponse, MintsResponse, ReferralNoncesResponse, ReferralPayoutsResponse, WalletHumansResponse, WorldIdStatusResponse } from "@oro/indexer/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpIndexerClient, IndexerUnavailableError } from "../src/services/indexer/client.js";

// The HTTP client of the indexer, against a local server answering with bodies typed by the indexer's
// own exported response types (a change there breaks this file's compilation). The real indexer is
// exercised in story.test.ts.
const address = "0x00000000000000000000000000000000000000aa";
const claims: ClaimsResponse = {
  claims: [
    {
      cursor: `1700000000${"0".repeat(64)}1`,
      transactionHash: `0x${"11".repeat(32)}`,
      blockNumber: 12,
      logIndex: 0,
      timestamp: 1_700_000_000,
      receiver: address,
      nullifierHash: `0x${"0".repeat(62)}2a`,
      amount: "500000000000000000",
      numOfMints: 1,
      streak: 1,
    },
  ],
};
const humans: WalletHumansResponse = { humans: [`0x${"0".repeat(62)}2a`, `0x${"AB".repeat(32)}`] };
const nobody = "0x00000000000000000000000000000000000000bb";
const idkitSessionId = `session_${"ab".repeat(32)}${"cd".repeat(32)}`;
const worldIdStatus: WorldIdStatusResponse = {
  address,
  session: { idkitSessionId, sessionId: `0x${"ab".repeat(32)}`, human: `0x${"0".repeat(62)}2a`, movedFrom: `0x${"0".repeat(62)}2a`, enrolledAt: 1_700_000_200 },
  movedToWorldId4: true,
};
const cutShort = "0x00000000000000000000000000000000000000cc";

let server: Server;
let baseUrl: string;
const requested: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = request.url ?? "";
    requested.push(url);
    const send = (status: number, body: string) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(body);
    };
    if (url.endsWith("/humans")) return send(200, JSON.stringify(humans));
    if (url === `/world-id/${address}`) return send(200, JSON.stringify(worldIdStatus));
    if (url === `/world-id/${nobody}`) return send(200, JSON.stringify({ address: nobody, session: null, movedToWorldId4: false } satisfies WorldIdStatusResponse));
    // IDKit cannot prove a session from part of its id: such an answer is unusable.
    if (url === `/world-id/${cutShort}`) return send(200, JSON.stringify({ ...worldIdStatus, address: cutShort, session: { ...worldIdStatus.session, idkitSessionId: idkitSessionId.slice(0, 72) } }));
    if (url.startsWith(`/streaks/${nobody}/`)) return send(200, JSON.stringify({ claims: [] } satisfies ClaimsResponse));
    if (url.startsWith("/streaks/")) return send(200, JSON.stringify(claims));
    // The indexer's answer: the paid ones among those asked (here every nonce that is a multiple of 7).
    if (url.startsWith("/referral-payouts/nonces?nonces=")) {
      const asked = url.slice("/referral-payouts/nonces?nonces=".length).split(",");
      if (asked.length > 100) return send(400, JSON.stringify({ error: "at most 100 a request" }));
      return send(200, JSON.stringify({ claimed: asked.filter((nonce) => BigInt(nonce) % 7n === 0n) } satisfies ReferralNoncesResponse));
    }
    if (url.startsWith("/mints?")) return send(200, JSON.stringify({ mints: claims.claims } satisfies MintsResponse));
    if (url.startsWith("/referral-payouts?")) {
      const payout: ReferralPayoutsResponse["payouts"][number] = { cursor: `1700000100${"0".repeat(64)}2`, nonce: (2n ** 255n).toString(), account: address, amount: "1", submitter: address, blockNumber: 13, timestamp: 1_700_000_100, transactionHash: `0x${"22".repeat(32)}` };
      return send(200, JSON.stringify({ payouts: [payout] } satisfies ReferralPayoutsResponse));
    }
    // A list in chain order with items the client cannot read: the page still reads, each item on its own.
    if (url.startsWith("/odd/mints?")) return send(200, JSON.stringify({ mints: [claims.claims[0], { ...claims.claims[0], cursor: `1700000001${"0".repeat(65)}`, receiver: "0x12" }, { receiver: address }] }));
    if (url.startsWith("/odd/referral-payouts?")) return send(200, JSON.stringify({ payouts: [{ cursor: `1700000100${"0".repeat(65)}`, nonce: (2n ** 256n).toString() }, 7] }));
    // GET /health/indexing answers its shape with 503 unless current.
    if (url === "/health/indexing") return send(503, JSON.stringify({ state: "behind", reason: "block 990 has waited 61 s", indexedBlock: 989, chainHead: 1_000, lagBlocks: 11, lagSeconds: 61 } satisfies IndexingHealthResponse));
    if (url.startsWith("/garbage")) return send(200, JSON.stringify({ claims: [{ nope: true }] }));
    if (url.startsWith("/slow")) return void setTimeout(() => send(200, "{}"), 2_000);
    return send(500, JSON.stringify({ error: "boom" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the indexer HTTP client", () => {
  it("reads claims and paid nonces in the indexer's shapes", async () => {
    const client = createHttpIndexerClient({ baseUrl: `${baseUrl}/`, timeoutMs: 1_000 });
    const [claim] = await client.claims("0x00000000000000000000000000000000000000AA", 1);
    expect(claim).toMatchObject({ receiver: address, amount: 500000000000000000n, numOfMints: 1 });
    expect(requested.at(-1)).toBe(`/streaks/${address}/claims?limit=1`);
    const big = 18446744073709551617n * 7n;
    expect(await client.claimedNonces([7n, 8n, big])).toEqual(new Set([7n, big]));
    expect(requested.at(-1)).toBe(`/referral-payouts/nonces?nonces=7,8,${big}`);
    // More than the indexer takes in one request: split, every nonce asked once.
    const before = requested.length;
    const many = Array.from({ length: 250 }, (_, i) => BigInt(i + 1));
    expect(await client.claimedNonces(many)).toEqual(new Set(many.filter((nonce) => nonce % 7n === 0n)));
    expect(requested.length - before).toBe(3);
    // Nothing to ask: no request.
    expect(await client.claimedNonces([])).toEqual(new Set());
    expect(requested.length - before).toBe(3);
  });

  it("asks for a wallet's first mint oldest first, one claim, and answers undefined before any", async () => {
    const client = createHttpIndexerClient({ baseUrl, timeoutMs: 1_000 });
    const oldest: ClaimsOrder = "oldest";
    expect(await client.firstClaim("0x00000000000000000000000000000000000000AA")).toMatchObject({ receiver: address, numOfMints: 1 });
    expect(requested.at(-1)).toBe(`/streaks/${address}/claims?order=${oldest}&limit=1`);
    expect(await client.firstClaim(nobody)).toBeUndefined();
    expect(requested.at(-1)).toBe(`/streaks/${nobody}/claims?order=oldest&limit=1`);
  });

  it("reads every human who minted to a wallet, lower-cased", async () => {
    const client = createHttpIndexerClient({ baseUrl, timeoutMs: 1_000 });
    expect(await client.humansOf("0x00000000000000000000000000000000000000AA")).toEqual([`0x${"0".repeat(62)}2a`, `0x${"ab".repeat(32)}`]);
    expect(requested.at(-1)).toBe(`/streaks/${address}/humans`);
  });

  it("reads the World ID 4.0 status of a wallet's human: IDKit's whole session id and whether they moved", async () => {
    const client = createHttpIndexerClient({ baseUrl, timeoutMs: 1_000 });
    expect(await client.worldIdStatus("0x00000000000000000000000000000000000000AA")).toEqual({ session: { idkitSessionId }, movedToWorldId4: true });
    expect(requested.at(-1)).toBe(`/world-id/${address}`);
    expect(await client.worldIdStatus(nobody)).toEqual({ session: null, movedToWorldId4: false });
    await expect(client.worldIdStatus(cutShort)).rejects.toThrow(/unexpected body/);
  });

  it("follows mints and payouts in chain order, after a cursor or from the first", async () => {
    const client = createHttpIndexerClient({ baseUrl, timeoutMs: 1_000 });
    expect(await client.mintsAfter(null, 1_000)).toEqual([{ cursor: claims.claims[0]?.cursor, receiver: address }]);
    expect(requested.at(-1)).toBe("/mints?limit=1000");
    const after = `1700000000${"0".repeat(65)}`;
    expect(await client.payoutsAfter(after, 10)).toEqual([{ cursor: `1700000100${"0".repeat(64)}2`, nonce: 2n ** 255n }]);
    expect(requested.at(-1)).toBe(`/referral-payouts?limit=10&after=${after}`);
  });

  it("reads whether indexing keeps up, from the 503 the indexer answers unless it is current", async () => {
    expect(await createHttpIndexerClient({ baseUrl, timeoutMs: 1_000 }).indexingHealth()).toEqual({ state: "behind", lagBlocks: 11, lagSeconds: 61 });
    await expect(createHttpIndexerClient({ baseUrl: `${baseUrl}/fail`, timeoutMs: 1_000 }).indexingHealth()).rejects.toThrow(IndexerUnavailableError);
  });

  it("reads each item of a list in chain order on its own: one it cannot read comes back as unreadable, with its cursor", async () => {
    const client = createHttpIndexerClient({ baseUrl: `${baseUrl}/odd`, timeoutMs: 1_000 });
    expect(await client.mintsAfter(null, 1_000)).toEqual([
      { cursor: claims.claims[0]?.cursor, receiver: address },
      { cursor: `1700000001${"0".repeat(65)}`, unreadable: expect.stringMatching(/^receiver: /) as unknown },
      { cursor: null, unreadable: expect.stringMatching(/cursor/) as unknown },
    ]);
    expect(await client.payoutsAfter(null, 10)).toEqual([
      { cursor: `1700000100${"0".repeat(65)}`, unreadable: expect.stringMatching(/uint256/) as unknown },
      { cursor: null, unreadable: expect.any(String) as unknown },
    ]);
  });

  it("turns errors, unexpected bodies, timeouts and a missing server into IndexerUnavailableError", async () => {
    await expect(createHttpIndexerClient({ baseUrl: `${baseUrl}/fail`, timeoutMs: 1_000 }).claims(address, 1)).rejects.toThrow(
      IndexerUnavailableError,
    );
    await expect(createHttpIndexerClient({ baseUrl: `${baseUrl}/garbage`, timeoutMs: 1_000 }).claims(address, 1)).rejects.toThrow(
      /unexpected body/,
    );
    await expect(createHttpIndexerClient({ baseUrl: `${baseUrl}/slow`, timeoutMs: 200 }).claims(address, 1)).rejects.toThrow(
      IndexerUnavailableError,
    );
    await expect(createHttpIndexerClient({ baseUrl: "http://127.0.0.1:9", timeoutMs: 500 }).claimedNonces([1n])).rejects.toThrow(
      IndexerUnavailableError,
    );
  });
});

describe("the indexer HTTP client's kept-alive connections", () => {
  it("sends a request again on a new connection when the indexer closed the kept-alive one under it", async () => {
    // Every connection answers its first request and is dropped at its second, as when the indexer closes an idle
    // connection just as the client sends on it (the request never reached it).
    const seen = new WeakMap<object, number>();
    const server: Server = createServer((request, response) => {
      const count = (seen.get(request.socket) ?? 0) + 1;
      seen.set(request.socket, count);
      if (count > 1) {
        request.socket.destroy();
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ claims: [] }));
    });
    server.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const client = createHttpIndexerClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, timeoutMs: 2_000 });
      for (let i = 0; i < 4; i += 1) expect(await client.claims(address, 1)).toEqual([]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
