import { createHash } from "node:crypto";
import type { Locale } from "../../lib/locales.js";

/**
 * The preview of an invite link. World's universal link (world.org/mini-app?app_id=…&path=…) and chat apps read
 * the Open Graph tags of the mini app's URL for that path: the invite path answers them, in the sharer's language,
 * and sends a person on to the app with the same referral query.
 */
export interface InviteTexts {
  /** The title with the sharer's username. */
  titleFrom: (username: string) => string;
  /** The title when the link carries no username; also the image's headline. */
  title: string;
  description: (code: string) => string;
  /** The image's second line. */
  imageLine: string;
}

export const INVITE_TEXTS: Record<Locale, InviteTexts> = {
  en: {
    titleFrom: (u) => `${u} invites you to ORO`,
    title: "You're invited to ORO",
    description: (code) => `Claim free ORO every day in World App. Open the invite and use code ${code}: you both earn a reward.`,
    imageLine: "Claim free ORO every day in World App",
  },
  es: {
    titleFrom: (u) => `${u} te invita a ORO`,
    title: "Te invitan a ORO",
    description: (code) => `Reclama ORO gratis cada día en World App. Abre la invitación y usa el código ${code}: ambos ganan una recompensa.`,
    imageLine: "Reclama ORO gratis cada día en World App",
  },
  fil: {
    titleFrom: (u) => `Iniimbitahan ka ni ${u} sa ORO`,
    title: "Iniimbitahan ka sa ORO",
    description: (code) => `Kumuha ng libreng ORO araw-araw sa World App. Buksan ang imbitasyon at gamitin ang code na ${code}: pareho kayong may gantimpala.`,
    imageLine: "Libreng ORO araw-araw sa World App",
  },
  id: {
    titleFrom: (u) => `${u} mengundang Anda ke ORO`,
    title: "Anda diundang ke ORO",
    description: (code) => `Klaim ORO gratis setiap hari di World App. Buka undangan ini dan pakai kode ${code}: kalian berdua dapat hadiah.`,
    imageLine: "Klaim ORO gratis setiap hari di World App",
  },
  ja: {
    titleFrom: (u) => `${u}さんからORO への招待`,
    title: "ORO への招待が届きました",
    description: (code) => `World App で毎日 ORO を無料で受け取れます。招待を開いてコード ${code} を使うと、二人とも報酬がもらえます。`,
    imageLine: "World App で毎日 ORO を無料で受け取ろう",
  },
  ko: {
    titleFrom: (u) => `${u}님이 ORO에 초대했어요`,
    title: "ORO 초대장이 도착했어요",
    description: (code) => `World App에서 매일 무료로 ORO를 받으세요. 초대를 열고 코드 ${code}를 사용하면 두 사람 모두 보상을 받아요.`,
    imageLine: "World App에서 매일 무료로 ORO 받기",
  },
  pt: {
    titleFrom: (u) => `${u} convidou você para o ORO`,
    title: "Você foi convidado para o ORO",
    description: (code) => `Resgate ORO grátis todos os dias no World App. Abra o convite e use o código ${code}: vocês dois ganham uma recompensa.`,
    imageLine: "Resgate ORO grátis todos os dias no World App",
  },
  th: {
    titleFrom: (u) => `${u} ชวนคุณมาใช้ ORO`,
    title: "คุณได้รับคำเชิญสู่ ORO",
    description: (code) => `รับ ORO ฟรีทุกวันใน World App เปิดคำเชิญแล้วใช้รหัส ${code} รับรางวัลทั้งคู่`,
    imageLine: "รับ ORO ฟรีทุกวันใน World App",
  },
};

/** The preview image's size (Open Graph's and X's large card: 1.91:1). */
export const INVITE_IMAGE = { width: 1200, height: 630 } as const;

/** Bump when the image's layout changes: the committed images must be rendered again. */
const IMAGE_TEMPLATE_VERSION = 1;

/**
 * What an image of `locale` shows: the rendered PNGs record it (assets/invite/manifest.json), and a test fails when a
 * text or the layout changed without rendering them again (`pnpm --filter @oro/api render:invite-images`).
 */
export function inviteImageFingerprint(locale: Locale): string {
  const texts = INVITE_TEXTS[locale];
  return createHash("sha256").update(JSON.stringify([IMAGE_TEMPLATE_VERSION, texts.title, texts.imageLine])).digest("hex").slice(0, 16);
}

/** The HTML the preview image is rendered from (by Chromium, at build time: scripts/render-invite-images.ts). */
export function inviteImageHtml(locale: Locale, coinSvg: string): string {
  const texts = INVITE_TEXTS[locale];
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><style>
  html, body { margin: 0; width: ${INVITE_IMAGE.width}px; height: ${INVITE_IMAGE.height}px; overflow: hidden; }
  body { font-family: "Noto Sans CJK JP", "Noto Sans CJK KR", "Noto Sans Thai", Loma, "DejaVu Sans", sans-serif;
    background: linear-gradient(135deg, #5c3a00 0%, #b87400 55%, #f5b400 100%); color: #fff9e0;
    display: flex; align-items: center; gap: 64px; padding: 0 96px; box-sizing: border-box; }
  .coin { width: 300px; height: 300px; flex: none; filter: drop-shadow(0 18px 30px rgba(0,0,0,.35)); }
  .coin svg { width: 100%; height: 100%; }
  h1 { font-size: 76px; line-height: 1.12; margin: 0 0 28px; font-weight: 800; color: #fff; }
  p { font-size: 40px; line-height: 1.3; margin: 0; color: #fff0b3; font-weight: 600; }
  .brand { position: absolute; left: 96px; bottom: 44px; font-size: 30px; letter-spacing: 6px; font-weight: 800; color: #ffd34d; }
</style></head><body><div class="coin">${coinSvg}</div><div><h1>${escapeHtml(texts.title)}</h1><p>${escapeHtml(texts.imageLine)}</p></div><div class="brand">ORO · WORLD APP</div></body></html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

export interface InvitePreviewInput {
  referralCode: string;
  referredBy: string | undefined;
  locale: Locale;
  /** Where the web app and the API are served (https://…): Open Graph wants absolute URLs. */
  origin: string;
}

/**
 * The invite path's answer: the Open Graph and X card tags (title, description, the language's image) for link
 * previews, and a refresh to the app's own deep link (`/?referralCode=…&referredBy=…`) for a person.
 */
export function invitePreviewHtml({ referralCode, referredBy, locale, origin }: InvitePreviewInput): string {
  const texts = INVITE_TEXTS[locale];
  const title = referredBy ? texts.titleFrom(referredBy) : texts.title;
  const description = texts.description(referralCode);
  const query = new URLSearchParams({ referralCode });
  if (referredBy) query.set("referredBy", referredBy);
  const app = `/?${query.toString()}`;
  query.set("lang", locale);
  const self = `${origin}/invite?${query.toString()}`;
  const image = `${origin}/api/invite/image/${locale}.png`;
  const meta = [
    ["property", "og:type", "website"],
    ["property", "og:site_name", "ORO"],
    ["property", "og:title", title],
    ["property", "og:description", description],
    ["property", "og:url", self],
    ["property", "og:image", image],
    ["property", "og:image:type", "image/png"],
    ["property", "og:image:width", String(INVITE_IMAGE.width)],
    ["property", "og:image:height", String(INVITE_IMAGE.height)],
    ["property", "og:image:alt", title],
    ["property", "og:locale", OG_LOCALES[locale]],
    ["name", "twitter:card", "summary_large_image"],
    ["name", "twitter:title", title],
    ["name", "twitter:description", description],
    ["name", "twitter:image", image],
    ["name", "description", description],
  ] as const;
  return [
    "<!doctype html>",
    `<html lang="${locale}"><head><meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(title)}</title>`,
    ...meta.map(([kind, key, value]) => `<meta ${kind}="${key}" content="${escapeHtml(value)}">`),
    `<meta http-equiv="refresh" content="0; url=${escapeHtml(app)}">`,
    `</head><body><p><a href="${escapeHtml(app)}">${escapeHtml(title)}</a></p></body></html>`,
  ].join("\n");
}

const OG_LOCALES: Record<Locale, string> = {
  en: "en_US",
  es: "es_ES",
  fil: "fil_PH",
  id: "id_ID",
  ja: "ja_JP",
  ko: "ko_KR",
  pt: "pt_BR",
  th: "th_TH",
};
