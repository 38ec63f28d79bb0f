import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { freePort } from "./helpers/ports.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { value } from "./helpers/metrics.js";

// Issue 19: what an operator watches, as Prometheus reads it. The test app's chain is an address where nothing
// answers, so the gauges that read the chain are left out of the scrape and counted as scrape errors.

let t: TestApp;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  t = await createTestApp({ indexer: new FakeIndexer(), env: { RATE_LIMIT_PER_IP: "3", METRICS_PORT: String(metricsPort) } });
});
afterAll(async () => {
  await t.close();
});

describe("metrics", () => {
  it("count requests by route pattern and status, and 429s, with latency", async () => {
    for (let i = 0; i < 4; i += 1) await t.app.inject({ method: "GET", url: "/api/auth/nonce", remoteAddress: "198.51.100.7" });
    await t.app.inject({ method: "GET", url: "/api/no-such-route" });
    const text = await t.app.metrics.metrics();
    expect(value(text, 'oro_api_http_requests_total{route="/api/auth/nonce",method="GET",status="200"}')).toBe(3);
    expect(value(text, 'oro_api_http_requests_total{route="/api/auth/nonce",method="GET",status="429"}')).toBe(1);
    expect(value(text, 'oro_api_rate_limited_total{route="/api/auth/nonce"}')).toBe(1);
    expect(value(text, 'oro_api_http_request_duration_seconds_count{route="/api/auth/nonce",method="GET"}')).toBe(4);
    // An unknown path is one series, not one per URL.
    expect(value(text, 'oro_api_http_requests_total{route="unmatched",method="GET",status="404"}')).toBe(1);
  });

  it("read payout jobs and reminders from the database, and leave out what the chain cannot answer", async () => {
    const text = await t.app.metrics.metrics();
    expect(value(text, 'oro_api_payout_jobs{state="pending"}')).toBe(0);
    expect(value(text, 'oro_api_payout_jobs{state="retrying"}')).toBe(0);
    expect(value(text, "oro_api_payout_oldest_pending_seconds")).toBe(0);
    expect(value(text, 'oro_api_reminders{state="due"}')).toBe(0);
    expect(value(text, "oro_api_indexer_up")).toBe(1);
    // The indexer's own judgement: current, nothing waiting to be indexed.
    expect(value(text, "oro_api_indexer_current")).toBe(1);
    expect(value(text, "oro_api_indexer_lag_seconds")).toBe(0);
    expect(value(text, "oro_api_indexer_lag_blocks")).toBe(0);
    expect(text).not.toMatch(/^oro_api_claim_contract_oro\{/m);
    expect(value(text, 'oro_api_scrape_errors_total{gauge="claim_contract_oro"}')).toBeGreaterThanOrEqual(1);
  });

  it("count the reminders an operator acts on (due, failed, abandoned), not every reminder ever sent", async () => {
    const job = (address: string, status: "pending" | "sent" | "failed" | "abandoned", dueInMs: number) => ({
      kind: "oro_claim",
      address,
      locale: "en",
      status,
      dueAt: new Date(Date.now() + dueInMs),
    });
    await t.db.database.prisma.notificationJob.createMany({
      data: [
        job("0x00000000000000000000000000000000000000a1", "pending", -60_000),
        job("0x00000000000000000000000000000000000000a2", "pending", -1_000),
        job("0x00000000000000000000000000000000000000a3", "pending", 3_600_000),
        job("0x00000000000000000000000000000000000000a4", "sent", -86_400_000),
        job("0x00000000000000000000000000000000000000a5", "failed", -86_400_000),
        job("0x00000000000000000000000000000000000000a6", "abandoned", -86_400_000),
        job("0x00000000000000000000000000000000000000a7", "abandoned", -86_400_000),
      ],
    });
    const text = await t.app.metrics.metrics();
    expect(value(text, 'oro_api_reminders{state="due"}')).toBe(2);
    expect(value(text, 'oro_api_reminders{state="failed"}')).toBe(1);
    expect(value(text, 'oro_api_reminders{state="abandoned"}')).toBe(2);
    expect(text).not.toMatch(/^oro_api_reminders\{state="(sent|scheduled)"\}/m);
    await t.db.database.prisma.notificationJob.deleteMany({});
  });

  it("count the reminder passes that ran to their end, due reminders or none", async () => {
    const before = value(await t.app.metrics.metrics(), "oro_api_reminder_passes_total") ?? 0;
    await t.app.services.reminders.runOnce();
    await t.app.services.reminders.runOnce();
    expect(value(await t.app.metrics.metrics(), "oro_api_reminder_passes_total")).toBe(before + 2);
  });

  it("say how long ago each follower of the indexer's events reached the newest one", async () => {
    expect(await t.app.metrics.metrics()).not.toMatch(/^oro_api_chain_follower_behind_seconds/m);
    await t.app.services.referrals.followPayouts(60_000);
    await t.db.database.prisma.chainFollower.create({ data: { name: "mints", followedAt: new Date(Date.now() - 300_000) } });
    const text = await t.app.metrics.metrics();
    expect(value(text, 'oro_api_chain_follower_behind_seconds{follower="payouts"}')).toBeLessThan(60);
    expect(value(text, 'oro_api_chain_follower_behind_seconds{follower="mints"}')).toBeGreaterThanOrEqual(300);
    await t.db.database.prisma.chainFollower.deleteMany({});
  });

  it("are served on their own port, and not on the API's", async () => {
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("content-type")).toContain("text/plain");
    expect(await scraped.text()).toContain("oro_api_http_requests_total");
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/health`)).status).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(404);
  });
});
