import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponseSchema } from "../src/schemas/common.js";
import { encodeInvitesCursor } from "../src/services/referrals/invites-page.js";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import {
  buildUrl,
  hostileString,
  operationsOf,
  seededRandom,
  validRequestParts,
  type Operation,
  type Random,
} from "./helpers/openapi-requests.js";
import { newUser, type TestUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

// Requests generated from the OpenAPI document, for every route and method: from the declared schemas and
// from their negation (wrong types, missing and duplicated parameters, huge, unicode and control-character
// strings, malformed JSON, wrong content types, oversized bodies), signed in and not, with the indexer up
// and down. No answer may be a 5xx (a 503 only while a dependency is down, and only where declared), none
// may take 2 s, and every 4xx has the documented error shape. Seeded: FUZZ_SEED=<n> repeats a run.
const seed = Number(process.env.FUZZ_SEED ?? randomInt(1, 2 ** 31));
const REQUESTS_PER_OPERATION = Number(process.env.FUZZ_REQUESTS ?? 100);
/** Forged paging cursors (FUZZ_CURSORS): a signed-in user can build any for their own list. */
const FORGED_CURSORS = Math.max(2, Number(process.env.FUZZ_CURSORS ?? 400));
/** Dependency errors a 503 may carry. The chain's RPC is unreachable in this app (127.0.0.1:9): always "down". */
const DEPENDENCY_CODES = new Set(["STREAK_UNAVAILABLE", "ELIGIBILITY_UNAVAILABLE", "REMINDER_UNAVAILABLE", "HUMAN_CHECK_UNAVAILABLE", "PRICE_UNAVAILABLE", "STATS_UNAVAILABLE", "WORLD_ID_STATUS_UNAVAILABLE"]);
const CHAIN_CODES = new Set(["CHAIN_UNAVAILABLE"]);

let t: TestApp;
const indexer = new FakeIndexer();
let users: TestUser[];
let ids: Record<string, string>;

beforeAll(async () => {
  console.log(`fuzz seed ${seed} (FUZZ_SEED=${seed} repeats this run)`);
  // Every request comes from one address: its budgets out of reach (the other user's session, which the fuzzing may sign
  // out, would otherwise spend the address's session refusals, and the owner's session would wait for the window).
  t = await createTestApp({ indexer, env: { RATE_LIMIT_PER_IP: "1000000", RATE_LIMIT_PER_ADDRESS: "1000000", RATE_LIMIT_SESSION_REFUSALS_PER_IP: "1000000" } });
  users = [await newUser(t.app, "fuzz-a"), await newUser(t.app, "fuzz-b")];
  indexer.mint(users[0]?.account.address ?? "0x", 424_242n);
  const poll = await t.db.database.prisma.poll.create({
    data: { question: { en: "Fuzz?" }, options: { create: [{ position: 0, label: { en: "yes" } }, { position: 1, label: { en: "no" } }] } },
    include: { options: true },
  });
  ids = { id: poll.id, optionId: poll.options[0]?.id ?? "" };
});
afterAll(async () => {
  await t.close();
});

interface Planned {
  kind: string;
  method: Operation["method"];
  url: string;
  headers: Record<string, string>;
  payload?: string;
  indexerDown: boolean;
}

function authHeaders(random: Random, operation: Operation): { headers: Record<string, string>; address: string } {
  const [own, other] = users;
  if (!own || !other) throw new Error("no users");
  const choice = random.pick(["none", "own", "own", "other", "forged", "cookie"] as const);
  // Signing out with the shared session would end it for the rest of the run.
  const safe = operation.path === "/api/auth/logout" && (choice === "own" || choice === "cookie") ? "forged" : choice;
  switch (safe) {
    case "none":
      return { headers: {}, address: own.address };
    case "own":
      return { headers: bearer(own.token), address: own.address };
    case "cookie":
      return { headers: { cookie: `oro_session=${own.token}` }, address: own.address };
    case "other":
      return { headers: bearer(other.token), address: own.address };
    case "forged":
      return { headers: bearer(hostileString(random).replace(/[^\x21-\x7e]/g, "") || "forged"), address: own.address };
  }
}

function plan(operation: Operation, random: Random): Planned {
  const { headers, address } = authHeaders(random, operation);
  const parts = validRequestParts(operation, { random, userAddress: address, ids });
  const kinds = ["valid", "valid", "hostile-value", "wrong-type", "missing", "duplicated", "unknown-parameter"];
  const takesBody = operation.method === "POST" || operation.method === "PUT";
  if (takesBody) kinds.push("malformed-json", "wrong-content-type", "oversized-body", "body-negation", "no-body");
  if (operation.path.includes("{")) kinds.push("path-garbage");
  const kind = random.pick(kinds);
  let query = parts.query;
  const pathValues = { ...parts.pathValues };
  let body: unknown = parts.body;
  let payload: string | undefined;
  const requestHeaders: Record<string, string> = { ...headers };
  const someIndex = () => random.int(0, Math.max(0, query.length - 1));

  switch (kind) {
    case "hostile-value":
      if (query.length > 0) query = query.map((entry, index) => (index === someIndex() || random.chance(0.3) ? [entry[0], hostileString(random)] : entry));
      break;
    case "wrong-type":
      query = query.map(([key]) => [key, random.pick(["{}", "[]", "1.5", "-0", "true", "0", String(random.int(-1e9, 1e9))])]);
      break;
    case "missing":
      query = query.filter((_entry, index) => index !== someIndex());
      break;
    case "duplicated": {
      const entry = query[someIndex()];
      if (entry) query = [...query, [entry[0], random.chance(0.5) ? entry[1] : hostileString(random)]];
      break;
    }
    case "unknown-parameter":
      query = [...query, [random.pick(["__proto__", "constructor", "userAddress[]", "x"]), hostileString(random)]];
      break;
    case "path-garbage":
      for (const key of Object.keys(pathValues)) pathValues[key] = hostileString(random);
      break;
    case "malformed-json":
      payload = random.pick(["{", "[", "nul", '{"optionId":', "\u0000", '{"a":1}}', "{".repeat(5_000)]);
      requestHeaders["content-type"] = "application/json";
      break;
    case "wrong-content-type":
      payload = JSON.stringify(body ?? {});
      requestHeaders["content-type"] = random.pick(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/json; charset=utf-16"]);
      break;
    case "oversized-body":
      payload = JSON.stringify({ junk: "x".repeat(random.int(70_000, 300_000)) });
      requestHeaders["content-type"] = "application/json";
      break;
    case "body-negation":
      body = random.pick<unknown>([[], "text", 42, null, { optionId: hostileString(random) }, { email: hostileString(random) }, { message: hostileString(random), signature: hostileString(random), address: hostileString(random), username: hostileString(random) }, { __proto__: { polluted: true } }]);
      break;
    case "no-body":
      body = undefined;
      break;
  }
  if (payload === undefined && body !== undefined && takesBody) {
    payload = JSON.stringify(body);
    requestHeaders["content-type"] ??= "application/json";
  }
  return {
    kind,
    method: operation.method,
    url: buildUrl(operation.path, pathValues, query),
    headers: requestHeaders,
    ...(payload !== undefined ? { payload } : {}),
    indexerDown: random.chance(0.25),
  };
}

describe(`OpenAPI-driven fuzzing (seed ${seed})`, () => {
  it(
    "no 5xx (a declared 503 only while a dependency is down), no answer slower than 2 s, every 4xx in the error shape",
    async () => {
      const random = seededRandom(seed);
      const operations = operationsOf(t.app);
      expect(operations.length).toBeGreaterThan(15);
      const failures: string[] = [];
      let requests = 0;
      const timings: string[] = [];
      for (const operation of operations) {
        const operationStarted = performance.now();
        for (let i = 0; i < REQUESTS_PER_OPERATION; i++) {
          const request = plan(operation, random);
          indexer.down = request.indexerDown;
          const started = performance.now();
          const response = await t.app.inject({
            method: request.method,
            url: request.url,
            headers: request.headers,
            ...(request.payload !== undefined ? { payload: request.payload } : {}),
          });
          const took = performance.now() - started;
          requests++;
          const where = `seed ${seed} #${requests} ${request.kind} ${request.method} ${request.url.slice(0, 200)} (indexer ${request.indexerDown ? "down" : "up"})`;
          const status = response.statusCode;
          if (took >= 2_000) failures.push(`${where}: took ${Math.round(took)} ms`);
          if (status >= 500) {
            const code = response.json<{ error?: string }>().error ?? "";
            const dependencyDown = (DEPENDENCY_CODES.has(code) && request.indexerDown) || CHAIN_CODES.has(code);
            if (status !== 503 || !dependencyDown || !operation.responses.includes(503)) {
              failures.push(`${where}: ${status} ${response.body.slice(0, 200)}`);
            }
          }
          if (status >= 400 && status < 500) {
            let shaped = false;
            try {
              shaped = response.headers["content-type"]?.toString().startsWith("application/json") === true && errorResponseSchema.safeParse(response.json()).success;
            } catch {
              shaped = false;
            }
            if (!shaped) failures.push(`${where}: ${status} not in the error shape: ${response.body.slice(0, 200)}`);
          }
          if (failures.length >= 20) break;
        }
        timings.push(`${operation.method} ${operation.path} ${Math.round(performance.now() - operationStarted)} ms`);
      }
      if (process.env.FUZZ_TIMINGS) console.log(timings.join("\n"));
      indexer.down = false;
      expect(failures, `fuzz seed ${seed}: ${requests} requests`).toEqual([]);
      expect(requests).toBe(operations.length * REQUESTS_PER_OPERATION);
    },
    300_000,
  );
});

/** The latest time written with a four-digit year, and the latest JavaScript holds. */
const LATEST_PLAIN_TIME = Date.UTC(9_999, 11, 31, 23, 59, 59, 999);
const LATEST_JS_TIME = 8_640_000_000_000_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function seededUuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => random.int(0, 15).toString(16)).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One field of a forged cursor: kept as issued, or replaced by something a database or a parser may choke on. */
function forgedValue(random: Random, field: string, issued: unknown): unknown {
  if (random.chance(0.5)) return issued;
  const uuid = seededUuid(random);
  const anywhere: unknown[] = [null, true, [], {}, "", hostileString(random), -0, Infinity, Number.MAX_SAFE_INTEGER, 2 ** 64];
  const byField: Record<string, unknown[]> = {
    o: ["spec-v2", "SPEC-V1", "spec-v1\u0000"],
    u: ["0".repeat(16), "f".repeat(16), "A".repeat(16), "0".repeat(15), "0".repeat(17)],
    r: [-1, 0, 1, 2, 3, 1.5, "1", 2 ** 31],
    t: [
      0, -1, 1.5, LATEST_PLAIN_TIME, LATEST_PLAIN_TIME + 1, Date.UTC(10_000, 0, 1), LATEST_JS_TIME, LATEST_JS_TIME + 1,
      random.int(0, LATEST_PLAIN_TIME), Date.UTC(1, 0, 1), -LATEST_JS_TIME, 1e21, "2026-01-01T00:00:00.000Z",
    ],
    i: [
      uuid, uuid.toUpperCase(), `${uuid}\u0000`, "\u0000", "\ud800", "a".repeat(36), "x".repeat(random.int(37, 5_000)),
      `${uuid.slice(0, 35)}😀`, "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
    ],
  };
  return random.pick([...(byField[field] ?? []), ...anywhere]);
}

/** Whether a cursor names a position in the owner's list: the one thing that makes it usable, whoever wrote it. */
function namesAPosition(payload: unknown, ownerDigest: unknown): boolean {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return false;
  const fields = payload as Record<string, unknown>;
  if (Object.keys(fields).sort().join() !== "i,o,r,t,u") return false;
  const { o, u, r, t: time, i } = fields;
  return (
    o === "spec-v1" && u === ownerDigest && (r === 0 || r === 1 || r === 2) &&
    typeof time === "number" && Number.isInteger(time) && time >= 0 && time <= LATEST_PLAIN_TIME &&
    typeof i === "string" && UUID.test(i)
  );
}

describe(`forged paging cursors (seed ${seed})`, () => {
  it("GET /api/referrals/oro-earned answers a page for a cursor that names a position and a 400 naming the cursor for any other, never a 5xx", async () => {
    const random = seededRandom(seed);
    const owner = users[0];
    if (!owner) throw new Error("no users");
    const row = await t.db.database.prisma.user.findUniqueOrThrow({ where: { address: owner.address.toLowerCase() } });
    const issued = JSON.parse(Buffer.from(encodeInvitesCursor(row.id, { rank: 2, updatedAt: new Date(), id: seededUuid(random) }), "base64url").toString("utf8")) as Record<string, unknown>;
    const failures: string[] = [];
    const answered = { page: 0, refused: 0 };
    for (let n = 1; n <= FORGED_CURSORS && failures.length < 20; n++) {
      // The first two are landmarks, so that any count exercises both outcomes: the cursor as issued (a page), and the
      // same naming another user's list (refused). The rest are forged at random.
      const landmark = n === 1 ? issued : n === 2 ? { ...issued, u: "0".repeat(16) } : undefined;
      let payload: unknown = landmark ?? Object.fromEntries(Object.entries(issued).map(([field, value]) => [field, forgedValue(random, field, value)]));
      if (landmark === undefined && random.chance(0.05)) {
        const { [random.pick(["o", "u", "r", "t", "i"])]: _dropped, ...rest } = payload as Record<string, unknown>;
        payload = rest;
      }
      if (landmark === undefined && random.chance(0.05)) payload = random.pick<unknown>([[payload], null, 42, "spec-v1", { ...(payload as object), extra: 1 }]);
      // JSON.stringify writes a lone surrogate as an escape, NUL as \u0000: the text the API decodes holds them back.
      let json = JSON.stringify(payload) ?? "null";
      if (landmark === undefined && random.chance(0.05)) {
        json = Buffer.from(Array.from({ length: random.int(1, 200) }, () => random.int(0, 255))).toString("latin1");
        payload = undefined;
      }
      const cursor = Buffer.from(json, payload === undefined ? "latin1" : "utf8").toString("base64url");
      const response = await t.app.inject({
        method: "GET",
        url: `/api/referrals/oro-earned?userAddress=${owner.address}&forceBustCache=true&cursor=${cursor}`,
        headers: bearer(owner.token),
      });
      const where = `seed ${seed} cursor #${n} ${json.slice(0, 300)}`;
      const expected = cursor.length <= 512 && namesAPosition(payload, issued.u) ? 200 : 400;
      if (response.statusCode !== expected) {
        failures.push(`${where}: ${response.statusCode} (expected ${expected}) ${response.body.slice(0, 200)}`);
      } else if (expected === 400) {
        const field = response.json<{ issues?: { field?: string }[] }>().issues?.[0]?.field;
        if (field !== "querystring.cursor") failures.push(`${where}: a 400 naming ${String(field)}, not querystring.cursor`);
        answered.refused++;
      } else {
        answered.page++;
      }
    }
    expect(failures, `fuzz seed ${seed}`).toEqual([]);
    // Both outcomes were exercised: the property is not met by refusing everything (or by accepting everything).
    expect(answered.page).toBeGreaterThan(0);
    expect(answered.refused).toBeGreaterThan(0);
  }, 300_000);
});
