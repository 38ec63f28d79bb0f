import type { SimulatorPage } from "./views.js";

/**
 * The control panel's controls: each calls the simulator, says what it does in the status line, and relaunches the
 * mini app where World App would. Served as its own source text (script.ts): it must not use anything outside its
 * own body.
 */
export function wireControls(page: SimulatorPage): void {
  const { frame, byId, call, action, refresh, refreshChain, launch, takeStorage } = page;
  byId("humans").addEventListener("change", (event) => {
    const target = event.target as HTMLInputElement;
    if (target.name === "wallet") {
      void action("Switching wallet", async () => {
        const { storage } = await call<{ storage: Record<string, string> }>("/select", { walletId: target.value, storage: takeStorage() });
        for (const [key, value] of Object.entries(storage)) localStorage.setItem(key, value);
        await refresh();
        launch("/");
      });
    } else if (target.dataset.orb) {
      const humanId = target.dataset.orb;
      void action("World ID status", () => call("/humans", { humanId, orbVerified: target.checked }).then(refresh));
    } else if (target.dataset.expiresSoon) {
      const humanId = target.dataset.expiresSoon;
      void action("World ID credential", () => call("/humans", { humanId, credentialExpiresSoon: target.checked }).then(refresh));
    }
  });
  byId<HTMLSelectElement>("language").addEventListener("change", (event) => {
    const language = (event.target as HTMLSelectElement).value;
    void action(`Device language ${language}`, async () => {
      await call("/settings", { language });
      await refresh();
      launch(frame.getAttribute("src") ?? "/");
    });
  });
  const setting = (id: string, key: string, read: (element: HTMLInputElement & HTMLSelectElement) => unknown) =>
    byId(id).addEventListener("change", (event) => {
      void action("Setting", () => call("/settings", { [key]: read(event.target as HTMLInputElement & HTMLSelectElement) }).then(refresh));
    });
  setting("auto-approve", "autoApprove", (element) => element.checked);
  // World App reports the safe area at launch: the mini app is relaunched with it.
  byId("notch").addEventListener("change", (event) => {
    const on = (event.target as HTMLInputElement).checked;
    void action("Setting", () => call("/settings", { notch: on }).then(refresh).then(() => launch(frame.getAttribute("src") ?? "/")));
  });
  setting("verification-fails", "verificationFails", (element) => element.checked);
  setting("world-id-3-proofs", "worldId3Proofs", (element) => element.checked);
  setting("next-transaction", "nextTransaction", (element) => element.value);
  setting("notification-answer", "notificationAnswer", (element) => element.value);
  byId("permission-reset").addEventListener("click", () => void action("Permission reset", () => call("/permissions/reset", {}).then(refresh)));
  byId("open-deep-link").addEventListener("click", () => {
    const params = new URLSearchParams();
    const code = byId<HTMLInputElement>("deep-referral-code").value.trim();
    const by = byId<HTMLInputElement>("deep-referred-by").value.trim();
    if (code) params.set("referralCode", code);
    if (by) params.set("referredBy", by);
    const query = params.toString();
    launch(query ? `/?${query}` : "/");
  });
  byId("relaunch").addEventListener("click", () => {
    launch("/");
  });
  // A reinstall: the mini app's storage and cookies go; World App (its proofs' replay guard, its sessions) stays.
  byId("reinstall").addEventListener("click", () => {
    void action("Reinstall mini app", async () => {
      frame.setAttribute("src", "about:blank");
      await call("/reinstall", {});
      takeStorage();
      launch("/");
    });
  });
  function advance(seconds: number) {
    // The phone's clock moves with the chain: the mini app is relaunched with it.
    void action(`Chain time +${seconds / 3600} h`, async () => {
      await call("/chain/advance", { seconds });
      await refreshChain();
      launch(frame.getAttribute("src") ?? "/");
    });
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>("[data-advance]")) {
    button.addEventListener("click", () => advance(Number(button.dataset.advance)));
  }
  // Any whole number of hours (the streak-at-risk nudge comes 4 h before a streak lapses: +20 h after a claim is due).
  byId("advance-by").addEventListener("click", () => advance(Math.round(Number(byId<HTMLInputElement>("advance-hours").value)) * 3600));
  byId("owner-set-amount").addEventListener("click", () => {
    const amount = byId<HTMLInputElement>("owner-amount").value.trim();
    void action(`Amount per mint ${amount}`, () => call("/owner", { task: "amount-per-mint", amount }).then(refreshChain));
  });
  byId("owner-set-wait").addEventListener("click", () => {
    const wait = byId<HTMLInputElement>("owner-wait").value.trim();
    void action(`Wait between mints ${wait}`, () => call("/owner", { task: "wait-between-mints", wait }).then(refreshChain));
  });
  byId("owner-killswitch").addEventListener("click", () => {
    if (!window.confirm("Killswitch the ORO token on the local chain? Minting stops for ever (restart the chain to undo).")) return;
    void action("Killswitch", () => call("/owner", { task: "killswitch" }).then(refreshChain));
  });

  byId("owner-close-world-id-3").addEventListener("click", () => {
    if (!window.confirm("Close World ID 3.0 on the local chain? 3.0 proofs stop minting for ever; every human enrols with 4.0.")) return;
    void action("Close World ID 3.0", () => call("/owner", { task: "close-world-id-3" }).then(refreshChain));
  });
}
