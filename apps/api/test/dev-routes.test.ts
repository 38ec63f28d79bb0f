import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVELOPMENT_DEFAULTS } from "../src/env.js";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";

const alice = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const bob = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  const prisma = db.database.prisma;
  await prisma.notificationOutbox.createMany({
    data: [
      { address: alice, language: "ja", title: "ORO", message: "受け取れます", miniAppPath: "/", createdAt: new Date("2026-01-01T00:00:00Z") },
      { address: alice, language: "en", title: "ORO", message: "Your ORO is ready", miniAppPath: "/", createdAt: new Date("2026-01-02T00:00:00Z") },
      { address: bob, language: "es", title: "ORO", message: "Tu ORO está listo", miniAppPath: "/", createdAt: new Date("2026-01-03T00:00:00Z") },
    ],
  });
});

afterAll(async () => {
  await db.drop();
});

describe("GET /api/dev/notifications", () => {
  describe("with the outbox transport of the development profile", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ testDatabase: db });
    });
    afterAll(async () => {
      await t.close();
    });

    it("lists what the outbox 'sent' to one address, newest first, in its language", async () => {
      const response = await t.app.inject({ method: "GET", url: `/api/dev/notifications?address=${alice.toUpperCase().replace("0X", "0x")}` });
      expect(response.statusCode).toBe(200);
      const body = response.json<{ notifications: { address: string; language: string; message: string }[] }>();
      expect(body.notifications.map((row) => [row.language, row.message])).toEqual([
        ["en", "Your ORO is ready"],
        ["ja", "受け取れます"],
      ]);
    });

    it("lists every address without a filter, and rejects a malformed address", async () => {
      const all = await t.app.inject({ method: "GET", url: "/api/dev/notifications" });
      expect(all.json<{ notifications: unknown[] }>().notifications).toHaveLength(3);
      const bad = await t.app.inject({ method: "GET", url: "/api/dev/notifications?address=0x123" });
      expect(bad.statusCode).toBe(400);
    });

    it("stays out of the OpenAPI document", () => {
      const document = t.app.swagger() as { paths: Record<string, unknown> };
      expect(Object.keys(document.paths).some((path) => path.startsWith("/api/dev"))).toBe(false);
    });
  });

  const productionOutbox = {
    ...DEVELOPMENT_DEFAULTS,
    NODE_ENV: "production",
    DATABASE_URL: "postgres://unused",
    SIWE_DOMAINS: "app.oro.example",
    // Production refuses Hardhat's public keys: keys of its own, unused here.
    CLAIM_SIGNER_PRIVATE_KEY: `0x${"11".repeat(32)}`,
    PAYOUT_WALLET_PRIVATE_KEY: `0x${"22".repeat(32)}`,
    WORLD_ID_SIGNING_KEY: `0x${"33".repeat(32)}`,
    NOTIFICATIONS_TRANSPORT: "outbox",
  };

  it("does not exist in production, even with the outbox transport", async () => {
    const t = await createTestApp({ testDatabase: db, env: productionOutbox });
    try {
      const response = await t.app.inject({ method: "GET", url: `/api/dev/notifications?address=${alice}` });
      expect(response.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it("exists in production for a rehearsal on the development chain (ORO_REHEARSAL=true)", async () => {
    const t = await createTestApp({ testDatabase: db, env: { ...productionOutbox, ORO_REHEARSAL: "true" } });
    try {
      const response = await t.app.inject({ method: "GET", url: `/api/dev/notifications?address=${alice}` });
      expect(response.statusCode).toBe(200);
      expect(response.json<{ notifications: { message: string }[] }>().notifications.map((n) => n.message)).toEqual(["Your ORO is ready", "受け取れます"]);
    } finally {
      await t.close();
    }
  });

  it("does not exist with World App's transport", async () => {
    const t = await createTestApp({ testDatabase: db, env: { NOTIFICATIONS_TRANSPORT: "world-app", WORLD_APP_API_KEY: "key" } });
    try {
      const response = await t.app.inject({ method: "GET", url: "/api/dev/notifications" });
      expect(response.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
