import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FALLBACK_LANGUAGE, LANGUAGES } from "@oro/clients";
import type { Plugin } from "vite";

/**
 * The first paint of / without waiting for the JavaScript. index.html carries the signed-out claim screen as
 * static markup (the same elements and classes React renders), in the visitor's language, painted as soon as the
 * page arrives; React replaces it when it mounts (createRoot empties #root), with identical boxes, so nothing
 * moves. It is inert and aria-hidden: not focusable, not announced; the app's own copy is the one read out.
 * It is drawn only where the app's first screen is certainly that one: on /, with no stored session that may
 * still be valid (a returning signed-in user sees their own state, from the app, as before). In a production
 * build the entry stylesheet is inlined too, so the first paint waits for no other request.
 */

/** The texts of the signed-out screen in one language (from src/i18n/<language>.json). */
export interface FirstPaintStrings {
  heading: string;
  tagline: string;
  signIn: string;
  /** The legal line around its link: before, link, after. */
  legal: [string, string, string];
  /** The tab bar's label and its three tabs. */
  tabs: [string, string, string, string];
}

interface Translation {
  claim: { heading: string; tagline: string; signIn: string; legal: string };
  tabs: { label: string; claim: string; share: string; about: string };
}

export function firstPaintStrings(i18nDir: string): Record<string, FirstPaintStrings> {
  const strings: Record<string, FirstPaintStrings> = {};
  for (const language of LANGUAGES) {
    const { claim, tabs } = JSON.parse(readFileSync(join(i18nDir, `${language}.json`), "utf8")) as Translation;
    // As TextWithLink splits it; a line without the tag is all text.
    const match = /^(.*)<terms>(.*)<\/terms>(.*)$/s.exec(claim.legal);
    strings[language] = {
      heading: claim.heading,
      tagline: claim.tagline,
      signIn: claim.signIn,
      legal: match ? [match[1] ?? "", match[2] ?? "", match[3] ?? ""] : [claim.legal, "", ""],
      tabs: [tabs.label, tabs.claim, tabs.share, tabs.about],
    };
  }
  return strings;
}

const TAB_ICONS = [
  ["/", "M12 2.8a9.2 9.2 0 1 0 0 18.4 9.2 9.2 0 0 0 0-18.4Zm0 4.7a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9Z"],
  ["/share", "M16 8a3 3 0 1 0-2.8-4M8 14a3 3 0 1 1-.1 0Zm8 4a3 3 0 1 0 .1 0ZM10.6 12.6l2.8-1.6m-2.8 4.4 2.8 1.6"],
  ["/about", "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm0 8v5m0-8.5v.5"],
] as const;

/**
 * What Layout, ClaimScreen (signed out), CoinIcon and TabBar render, without the texts. The coin does not float
 * yet (the app's coin starts its float from this very position) and its gradient has an id of its own.
 */
export const FIRST_PAINT_TEMPLATE =
  `<div class="app" data-first-paint inert aria-hidden="true"><main class="app__main"><div class="claim claim--signedOut"><section class="claim__hero">` +
  `<svg class="claim__coin" width="112" height="112" viewBox="0 0 64 64" aria-hidden="true" focusable="false"><defs><radialGradient id="oro-coin-face-first-paint" cx="35%" cy="30%" r="75%">` +
  `<stop offset="0" stop-color="#fff3b0"></stop><stop offset="0.45" stop-color="#ffd34d"></stop><stop offset="1" stop-color="#e09b00"></stop></radialGradient></defs>` +
  `<circle cx="32" cy="32" r="31" fill="#b87400"></circle><circle cx="32" cy="32" r="28" fill="url(#oro-coin-face-first-paint)"></circle>` +
  `<circle cx="32" cy="32" r="21" fill="none" stroke="#c98500" stroke-width="2" opacity="0.55"></circle><circle cx="32" cy="32" r="11.5" fill="none" stroke="#8a5600" stroke-width="5.5"></circle></svg>` +
  `<h1 class="claim__title"></h1><p class="claim__tagline"></p><button type="button" class="button button--primary button--block button--large"></button>` +
  `<p class="claim__legal"><a class="link" href="/terms"></a></p></section></div></main><nav class="tab-bar">` +
  TAB_ICONS.map(
    ([path, icon], index) =>
      `<a class="tab${index === 0 ? " tab--active" : ""}" href="${path}"><svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">` +
      `<path d="${icon}" fill="none" stroke="currentColor" stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round"></path></svg><span></span></a>`,
  ).join("") +
  `</nav></div>`;

/**
 * detectLanguage (src/i18n/languages.ts) restated without imports, for the inline script: the first candidate
 * that is a safe, short language tag naming one of `known`, else the first of `known` (the fallback). A test
 * holds the two to the same answers.
 */
export function firstPaintLanguage(candidates: readonly unknown[], known: readonly string[]): string {
  for (const candidate of candidates) {
    if (typeof candidate !== "string" || candidate.length === 0 || candidate.length > 35) continue;
    if (/[<>"'`(){};=\\/]|javascript:|script|%3c|&#|&lt;/i.test(candidate)) continue;
    if (!/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}$/.test(candidate)) continue;
    const primary = candidate.trim().toLowerCase().split(/[-_]/)[0] ?? "";
    const language = primary === "tl" ? "fil" : primary === "in" ? "id" : primary;
    if (known.includes(language)) return language;
  }
  return known[0] ?? "en";
}

/**
 * Runs inline in index.html, right after #root, before any module: picks the language the app will pick (stored
 * choice, then the wallet, then the browser, as src/i18n/index.ts), preloads its strings, and fills #root with the
 * template in that language, or leaves it empty. Inlined by its source text, so it uses nothing but its arguments
 * and the page's globals.
 */
export function paintFirstScreen(
  strings: Record<string, FirstPaintStrings>,
  template: string,
  pick: (candidates: readonly unknown[], known: readonly string[]) => string,
  fallback: string,
  preloads: Record<string, string>,
): void {
  // As src/lib/storage.ts reads it: no storage, or a value that is not JSON, reads as nothing stored.
  const stored = (key: string): unknown => {
    try {
      const text = window.localStorage.getItem(`oro.${key}`);
      return text === null ? null : (JSON.parse(text) as unknown);
    } catch {
      return null;
    }
  };
  const choice = stored("language");
  const candidates: unknown[] = [typeof choice === "string" ? choice : null];
  const worldApp: unknown = Reflect.get(window, "WorldApp");
  if (worldApp && typeof worldApp === "object") candidates.push(Reflect.get(worldApp, "preferred_language"), Reflect.get(worldApp, "language"));
  candidates.push(new URLSearchParams(window.location.search).get("lang"), ...(navigator.languages ?? []), navigator.language);
  const language = pick(
    candidates.filter((candidate) => candidate != null),
    [fallback, ...Object.keys(strings).filter((each) => each !== fallback)],
  );
  // The app's first render waits for its language's strings (a chunk of their own, en aside): asked for now,
  // alongside the app's scripts, on every path and signed in or not.
  const chunk = preloads[language];
  if (chunk) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.crossOrigin = "";
    link.href = chunk;
    document.head.append(link);
  }
  const root = document.getElementById("root");
  const text = strings[language];
  if (!root || !text || window.location.pathname !== "/") return;
  const session = stored("session");
  // The app treats a stored session as signed in until it has expired; only a certainly expired one is drawn.
  if (typeof session === "object" && session !== null && !(Date.parse(String(Reflect.get(session, "expiresAt"))) <= Date.now())) return;
  try {
    root.innerHTML = template;
    const set = (selector: string, value: string) => {
      const element = root.querySelector(selector);
      if (element) element.textContent = value;
    };
    set(".claim__title", text.heading);
    set(".claim__tagline", text.tagline);
    set(".button", text.signIn);
    const [before, link, after] = text.legal;
    set(".claim__legal a", link);
    const legal = root.querySelector(".claim__legal");
    const anchor = legal?.querySelector("a");
    if (legal && anchor) legal.replaceChildren(...[before, anchor, after].filter((part) => part !== ""));
    root.querySelector(".tab-bar")?.setAttribute("aria-label", text.tabs[0]);
    root.querySelectorAll(".tab span").forEach((span, index) => (span.textContent = text.tabs[index + 1] ?? ""));
    document.documentElement.lang = language;
  } catch {
    // An older WebView without some of the above: no first paint rather than a half-filled one.
    root.textContent = "";
  }
}

/** The inline script for index.html; `preloads`: each language's strings chunk (a build's; none in development). */
export function firstPaintScript(strings: Record<string, FirstPaintStrings>, preloads: Record<string, string> = {}): string {
  // "<" escaped in the data: no text can close the script element.
  const data = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
  const script = `(${paintFirstScreen.toString()})(${[data(strings), data(FIRST_PAINT_TEMPLATE), firstPaintLanguage.toString(), data(FALLBACK_LANGUAGE), data(preloads)].join(",")});`;
  if (/<\/script|<!--/i.test(script)) throw new Error("the first paint's script would end its script element");
  return script;
}

/**
 * Adds the first paint to index.html (dev and build; not to the test harness pages) and, in a production build,
 * puts the entry stylesheet inline instead of linking it, so that nothing but index.html stands before the paint.
 * `enabled: false` (an operator's claim-issues banner tops the first screen) leaves index.html as it is.
 */
export function firstPaint({ i18nDir, enabled = true }: { i18nDir: string; enabled?: boolean }): Plugin {
  return {
    name: "oro-first-paint",
    transformIndexHtml: {
      order: "post",
      handler(html, context) {
        if (!enabled || context.path !== "/index.html") return html;
        const bundle = context.bundle;
        const preloads: Record<string, string> = {};
        for (const chunk of Object.values(bundle ?? {})) {
          const language = chunk.type === "chunk" ? /[\\/]src[\\/]i18n[\\/](\w+)\.json$/.exec(chunk.facadeModuleId ?? "")?.[1] : undefined;
          if (language) preloads[language] = `/${chunk.fileName}`;
        }
        let page = html.replace('<div id="root"></div>', `<div id="root"></div>\n    <script>${firstPaintScript(firstPaintStrings(i18nDir), preloads)}</script>`);
        if (bundle) {
          page = page.replace(/<link rel="stylesheet"(?: crossorigin)? href="\/([^"]+\.css)">/g, (link, file: string) => {
            const asset = bundle[file];
            if (asset?.type !== "asset" || typeof asset.source !== "string") return link;
            // Kept in the bundle when a script also refers to it (a lazy chunk's preload list).
            const referenced = Object.values(bundle).some((chunk) => chunk.type === "chunk" && chunk.code.includes(file));
            if (!referenced) Reflect.deleteProperty(bundle, file);
            return `<style>${asset.source}</style>`;
          });
        }
        return page;
      },
    },
  };
}
