import { afterEach, describe, expect, it, vi } from "vitest";
import { createMonitoring, worldAppAllowsAnalytics } from "../src/lib/monitoring";

afterEach(() => {
  vi.restoreAllMocks();
  delete (window as { WorldApp?: unknown }).WorldApp;
});

describe("monitoring and World App's optional analytics", () => {
  it("sends nothing when World App says the user does not allow optional analytics", () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => undefined);
    (window as { WorldApp?: unknown }).WorldApp = { is_optional_analytics: false };
    const monitoring = createMonitoring(true);
    monitoring.event("claim_success", { chainId: 480 });
    expect(info).not.toHaveBeenCalled();
    expect(monitoring.analyticsAllowed()).toBe(false);
  });

  it("sends when World App allows them; outside World App only development logs", () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => undefined);
    (window as { WorldApp?: unknown }).WorldApp = { is_optional_analytics: true };
    createMonitoring(true).event("verified");
    expect(info).toHaveBeenCalledWith("[monitoring] verified", {});
    delete (window as { WorldApp?: unknown }).WorldApp;
    expect(worldAppAllowsAnalytics()).toBeNull();
    expect(createMonitoring(true).analyticsAllowed()).toBe(true);
    expect(createMonitoring(false).analyticsAllowed()).toBe(false);
  });
});

describe("World App's safe area", () => {
  it("sets the layout's --safe-* variables from WorldApp.safe_area_insets, never below CSS env()", async () => {
    const { applySafeAreaInsets } = await import("../src/lib/world-app/install");
    const root = document.createElement("div");
    (window as { WorldApp?: unknown }).WorldApp = { safe_area_insets: { top: 47, right: 0, bottom: 34.4, left: 0 } };
    applySafeAreaInsets(root);
    expect(root.style.getPropertyValue("--safe-top")).toBe("max(env(safe-area-inset-top, 0px), 47px)");
    expect(root.style.getPropertyValue("--safe-bottom")).toBe("max(env(safe-area-inset-bottom, 0px), 34px)");
    expect(root.style.getPropertyValue("--safe-left")).toBe("");
  });
});
