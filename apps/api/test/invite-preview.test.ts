import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVELOPMENT_DEFAULTS } from "../src/env.js";
import { INVITE_IMAGE_DIR } from "../src/routes/invite/index.js";
import { INVITE_IMAGE, INVITE_TEXTS, inviteImageFingerprint } from "../src/services/referrals/invite-preview.js";
import { LOCALES } from "../src/lib/locales.js";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ indexer: new FakeIndexer(), env: { PUBLIC_ORIGIN: "https://oro.example" } });
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, app = t.app) => app.inject({ method: "GET", url });

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const unescape = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);

/** The content (unescaped, as a browser reads it) of each `<meta property|name="key" content="…">` of a page. */
function metaOf(html: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [, key, content] of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)) {
    if (key !== undefined && content !== undefined) tags[key] = unescape(content);
  }
  return tags;
}

describe("the invite link's preview (GET /api/invite, which /invite reaches through Caddy and the dev stack)", () => {
  it("answers Open Graph and X card tags in the sharer's language, with the sharer's username and the code", async () => {
    const response = await get("/api/invite?referralCode=abc123&referredBy=maria&lang=es");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    // The simulator shows the mini app in a frame.
    expect(response.headers["x-frame-options"]).toBeUndefined();
    const meta = metaOf(response.body);
    expect(meta).toMatchObject({
      "og:title": "maria te invita a ORO",
      "og:description": INVITE_TEXTS.es.description("ABC123"),
      "og:image": "https://oro.example/api/invite/image/es.png",
      "og:image:type": "image/png",
      "og:image:width": "1200",
      "og:image:height": "630",
      "og:locale": "es_ES",
      "og:url": "https://oro.example/invite?referralCode=ABC123&referredBy=maria&lang=es",
      "twitter:card": "summary_large_image",
      "twitter:title": "maria te invita a ORO",
      "twitter:image": "https://oro.example/api/invite/image/es.png",
    });
    expect(response.body).toContain('<html lang="es">');
    // A person goes on to the app with the invite's query, as the deep link always carried it.
    expect(response.body).toContain('<meta http-equiv="refresh" content="0; url=/?referralCode=ABC123&amp;referredBy=maria">');
  });

  it("has every language (a tag such as pt-BR or tl is ours, anything else English), and no username when none came", async () => {
    for (const locale of LOCALES) {
      const meta = metaOf((await get(`/api/invite?referralCode=XYZ&lang=${locale}`)).body);
      expect(meta["og:title"], locale).toBe(INVITE_TEXTS[locale].title);
      expect(meta["og:image"], locale).toBe(`https://oro.example/api/invite/image/${locale}.png`);
      if (locale !== "en") expect(meta["og:description"], locale).not.toBe(INVITE_TEXTS.en.description("XYZ"));
    }
    expect(metaOf((await get("/api/invite?referralCode=XYZ&lang=pt-BR")).body)["og:title"]).toBe(INVITE_TEXTS.pt.title);
    expect(metaOf((await get("/api/invite?referralCode=XYZ&lang=tl")).body)["og:title"]).toBe(INVITE_TEXTS.fil.title);
    expect(metaOf((await get("/api/invite?referralCode=XYZ&lang=xx")).body)["og:title"]).toBe(INVITE_TEXTS.en.title);
    expect(metaOf((await get("/api/invite?referralCode=XYZ")).body)["og:title"]).toBe(INVITE_TEXTS.en.title);
  });

  it("escapes what the link carries, and refuses a link without a valid code", async () => {
    const response = await get(`/api/invite?referralCode=XYZ&referredBy=${encodeURIComponent('"><script>alert(1)</script>')}&lang=en`);
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain("<script>");
    expect(metaOf(response.body)["og:title"]).toBe('"><script>alert(1)</script> invites you to ORO');
    expect((await get("/api/invite?referralCode=../etc")).statusCode).toBe(400);
    expect((await get("/api/invite")).statusCode).toBe(400);
  });

  it("serves each language's image as a 1200×630 PNG, and nothing else", async () => {
    for (const locale of LOCALES) {
      const response = await get(`/api/invite/image/${locale}.png`);
      expect(response.statusCode, locale).toBe(200);
      expect(response.headers["content-type"], locale).toBe("image/png");
      const png = response.rawPayload;
      expect(png.subarray(0, 8).toString("hex"), locale).toBe("89504e470d0a1a0a");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], locale).toEqual([INVITE_IMAGE.width, INVITE_IMAGE.height]);
      // Chat apps drop larger previews (WhatsApp: 300 KB).
      expect(png.length, locale).toBeLessThan(300_000);
    }
    expect((await get("/api/invite/image/xx.png")).statusCode).toBe(400);
    expect((await get("/api/invite/image/..%2Fmanifest.json")).statusCode).toBe(400);
  });

  it("has images rendered from today's texts (else run pnpm --filter @oro/api render:invite-images)", async () => {
    const manifest = JSON.parse(await readFile(path.join(INVITE_IMAGE_DIR, "manifest.json"), "utf8")) as Record<string, string>;
    expect(manifest).toEqual(Object.fromEntries(LOCALES.map((locale) => [locale, inviteImageFingerprint(locale)])));
  });

  it("builds its links from PUBLIC_ORIGIN only: a forged Host or forwarded host changes nothing in the page caches keep", async () => {
    // The test profile sets none: the development default, never the request's host.
    const other = await createTestApp({ indexer: new FakeIndexer(), testDatabase: t.db });
    try {
      for (const [app, origin] of [[t.app, "https://oro.example"], [other.app, DEVELOPMENT_DEFAULTS.PUBLIC_ORIGIN]] as const) {
        const honest = await get("/api/invite?referralCode=XYZ&lang=ko", app);
        expect(honest.headers["cache-control"]).toBe("public, max-age=300");
        expect(metaOf(honest.body)["og:image"]).toBe(`${origin}/api/invite/image/ko.png`);
        expect(metaOf(honest.body)["og:url"]).toBe(`${origin}/invite?referralCode=XYZ&lang=ko`);
        for (const headers of [{ host: "evil.example" }, { host: "evil.example:8443", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" }]) {
          const forged = await app.inject({ method: "GET", url: "/api/invite?referralCode=XYZ&lang=ko", headers });
          expect(forged.body, JSON.stringify(headers)).toBe(honest.body);
        }
      }
    } finally {
      await other.close();
    }
  });
});
