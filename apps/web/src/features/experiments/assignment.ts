import type { Experiment, Variant } from "./experiments";

/** Where assignments are kept: the browser's cookies, or a stand-in in tests. */
export interface CookieJar {
  get(name: string): string | null;
  set(name: string, value: string, maxAgeSeconds: number): void;
}

export const experimentCookieName = (experiment: Experiment) => `oro_exp_${experiment.id}`;

const isVariant = (value: string | null): value is Variant => value === "control" || value === "variant";

/**
 * The user's variant of an experiment. An experiment that is off shows the control to everyone and writes
 * nothing. An experiment that is on keeps the user's assignment in a cookie for `cookieDays` (so a reload, or
 * any screen that asks, sees the same variant), and draws a new one only when there is none (first visit,
 * or the cookie expired): the variant with probability `threshold`.
 */
export function assignVariant(
  experiment: Experiment,
  { enabled, cookies, random = Math.random }: { enabled: boolean; cookies: CookieJar; random?: () => number },
): Variant {
  if (!enabled) return "control";
  const name = experimentCookieName(experiment);
  const kept = cookies.get(name);
  if (isVariant(kept)) return kept;
  const variant: Variant = random() < experiment.threshold ? "variant" : "control";
  cookies.set(name, variant, experiment.cookieDays * 86_400);
  return variant;
}

/** document.cookie, for this site's whole path; a browser that refuses cookies gets a fresh draw per visit. */
export const browserCookies: CookieJar = {
  get(name) {
    if (typeof document === "undefined") return null;
    for (const part of document.cookie.split(";")) {
      const [key, ...rest] = part.trim().split("=");
      if (key === name) return decodeURIComponent(rest.join("="));
    }
    return null;
  },
  set(name, value, maxAgeSeconds) {
    if (typeof document === "undefined") return;
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure}`;
  },
};

/** Forgets an assignment (the debug page's reset). */
export function clearAssignment(experiment: Experiment, cookies: CookieJar = browserCookies): void {
  cookies.set(experimentCookieName(experiment), "", 0);
}
