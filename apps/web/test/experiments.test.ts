import { afterEach, describe, expect, it, vi } from "vitest";
import { assignVariant, browserCookies, experimentCookieName, type CookieJar } from "../src/features/experiments/assignment";
import { EXPERIMENTS } from "../src/features/experiments/experiments";

const apps = EXPERIMENTS.appsPage;

/** A jar that holds cookies in memory, for simulating many users. */
function memoryJar(): CookieJar & { maxAge: Map<string, number> } {
  const values = new Map<string, string>();
  const maxAge = new Map<string, number>();
  return {
    maxAge,
    get: (name) => values.get(name) ?? null,
    set: (name, value, seconds) => {
      values.set(name, value);
      maxAge.set(name, seconds);
    },
  };
}

function clearCookies() {
  for (const part of document.cookie.split(";")) {
    const name = part.split("=")[0]?.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.resetModules();
  clearCookies();
});

describe("experiment 2 (the apps page)", () => {
  it("is number 2, off by default, threshold 0.1, kept 7 days", () => {
    expect(apps).toEqual({ id: 2, threshold: 0.1, onByDefault: false, cookieDays: 7 });
  });

  it("shows everyone the control and writes no cookie while it is off", () => {
    const jar = memoryJar();
    for (let i = 0; i < 50; i++) expect(assignVariant(apps, { enabled: false, cookies: jar, random: () => 0 })).toBe("control");
    expect(jar.maxAge.size).toBe(0);
  });

  it("puts about 10% of many simulated users in the variant", () => {
    const users = 20_000;
    let inVariant = 0;
    for (let i = 0; i < users; i++) {
      if (assignVariant(apps, { enabled: true, cookies: memoryJar() }) === "variant") inVariant++;
    }
    // 20,000 draws at p = 0.1: the standard deviation is about 0.2 percentage points; 1 point is 5 of them.
    expect(inVariant / users).toBeGreaterThan(0.09);
    expect(inVariant / users).toBeLessThan(0.11);
  });

  it("keeps a user's variant across reloads for 7 days, and draws again once the cookie expires", () => {
    // A jar that expires cookies by their Max-Age, as a browser does, on a clock the test moves.
    let now = Date.parse("2026-03-01T12:00:00Z");
    const stored = new Map<string, { value: string; expiresAt: number }>();
    const jar: CookieJar = {
      get: (name) => {
        const cookie = stored.get(name);
        return cookie && cookie.expiresAt > now ? cookie.value : null;
      },
      set: (name, value, seconds) => stored.set(name, { value, expiresAt: now + seconds * 1000 }),
    };
    // First visit: drawn into the variant.
    expect(assignVariant(apps, { enabled: true, cookies: jar, random: () => 0.05 })).toBe("variant");
    // Reloads within 7 days keep it, whatever a new draw would say.
    for (const later of [1, 3_600_000, 7 * 86_400_000 - 60_000]) {
      now = Date.parse("2026-03-01T12:00:00Z") + later;
      expect(assignVariant(apps, { enabled: true, cookies: jar, random: () => 0.99 })).toBe("variant");
    }
    // After 7 days the cookie is gone, so the user is drawn again (and kept again).
    now = Date.parse("2026-03-08T12:00:01Z");
    expect(assignVariant(apps, { enabled: true, cookies: jar, random: () => 0.99 })).toBe("control");
    expect(assignVariant(apps, { enabled: true, cookies: jar, random: () => 0.01 })).toBe("control");
  });

  it("in the page, the assignment lives in the oro_exp_2 cookie with Max-Age 7 days for the whole site", () => {
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, "cookie");
    const written: string[] = [];
    vi.spyOn(document, "cookie", "set").mockImplementation((value: string) => {
      written.push(value);
      descriptor?.set?.call(document, value);
    });
    expect(assignVariant(apps, { enabled: true, cookies: browserCookies, random: () => 0.05 })).toBe("variant");
    expect(written).toEqual(["oro_exp_2=variant; Max-Age=604800; Path=/; SameSite=Lax"]);
    expect(browserCookies.get(experimentCookieName(apps))).toBe("variant");
    // A reload reads the cookie instead of drawing again.
    expect(assignVariant(apps, { enabled: true, cookies: browserCookies, random: () => 0.99 })).toBe("variant");
    expect(written).toHaveLength(1);
  });

  it("writes the cookie with a 7-day lifetime for the whole site", () => {
    const jar = memoryJar();
    assignVariant(apps, { enabled: true, cookies: jar, random: () => 0.5 });
    expect(jar.maxAge.get("oro_exp_2")).toBe(7 * 86_400);
  });

  it("an operator switches it on by configuration (VITE_EXPERIMENTS=2)", async () => {
    const off = await import("../src/features/experiments/use-experiment");
    expect(off.isExperimentOn("appsPage")).toBe(false);
    vi.resetModules();
    vi.stubEnv("VITE_EXPERIMENTS", "2");
    const on = await import("../src/features/experiments/use-experiment");
    expect(on.isExperimentOn("appsPage")).toBe(true);
  });
});
