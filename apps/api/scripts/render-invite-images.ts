/**
 * Renders the invite link's preview images (assets/invite/<locale>.png, 1200×630) with Debian's Chromium
 * (CHROMIUM_PATH, default /usr/bin/chromium) and records what each shows in assets/invite/manifest.json; a test
 * fails when a text or the layout changed and this was not run again. `pnpm --filter @oro/api render:invite-images`
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@oro/dev-stack/chromium";
import { INVITE_IMAGE, inviteImageFingerprint, inviteImageHtml } from "../src/services/referrals/invite-preview.js";
import { LOCALES } from "../src/lib/locales.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "assets", "invite");
const coin = readFileSync(path.join(root, "..", "web", "public", "coin.svg"), "utf8");
const work = mkdtempSync(path.join(tmpdir(), "oro-invite-"));
const manifest: Record<string, string> = {};
try {
  for (const locale of LOCALES) {
    const page = path.join(work, `${locale}.html`);
    writeFileSync(page, inviteImageHtml(locale, coin));
    execFileSync(CHROMIUM_PATH, [
      "--headless", ...CHROMIUM_ARGS, "--hide-scrollbars", "--force-device-scale-factor=1",
      `--user-data-dir=${path.join(work, "profile")}`, `--window-size=${INVITE_IMAGE.width},${INVITE_IMAGE.height}`,
      `--screenshot=${path.join(out, `${locale}.png`)}`, `file://${page}`,
    ], { stdio: "ignore", timeout: 60_000 });
    manifest[locale] = inviteImageFingerprint(locale);
    console.log(`rendered ${locale}.png`);
  }
  writeFileSync(path.join(out, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
