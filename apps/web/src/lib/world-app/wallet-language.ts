/**
 * Language hints from the wallet: World App opens a mini app with its own language in the launch URL (`lang`) and
 * may expose it on `window.WorldApp`. Raw values only: the i18n module filters them.
 */
export function walletLanguageCandidates(): unknown[] {
  if (typeof window === "undefined") return [];
  const candidates: unknown[] = [];
  const worldApp: unknown = Reflect.get(window, "WorldApp");
  if (worldApp && typeof worldApp === "object") {
    candidates.push(Reflect.get(worldApp, "preferred_language"), Reflect.get(worldApp, "language"));
  }
  candidates.push(new URLSearchParams(window.location.search).get("lang"));
  return candidates.filter((candidate) => candidate != null);
}
