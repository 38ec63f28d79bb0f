/**
 * The script the simulator adds to the mini app's HTML, as World App's web view adds its user script. It gives
 * the page what the wallet gives it and nothing more: `window.WorldApp` (the launch properties) and
 * `window.webkit.messageHandlers.minikit.postMessage` (the native bridge). Messages go to the simulator page
 * (the parent frame); answers come back and are delivered through `window.MiniKit.trigger(event, payload)`.
 * Requests to World App's username service are answered by the simulator's stand-in of that service.
 *
 * The phone's clock follows the local chain: when the simulator moves chain time forward, the mini app is
 * relaunched with its clock moved by as much (`clockOffsetMs`), as a phone's clock and World Chain agree.
 *
 * Served as `(${installBridge})(worldApp, clockOffsetMs)`: it must not use anything outside its own body.
 */
export function installBridge(worldApp: Record<string, unknown>, clockOffsetMs: number): void {
  const BRIDGE = "oro-simulator-bridge";
  const HOST = "oro-simulator-host";
  const parentWindow = window.parent;
  const origin = window.location.origin;
  const toPlain = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item)));

  Object.defineProperty(window, "WorldApp", { value: Object.freeze(worldApp), configurable: false, enumerable: true, writable: false });
  Object.defineProperty(window, "webkit", {
    value: {
      messageHandlers: {
        minikit: {
          postMessage(message: unknown) {
            parentWindow.postMessage({ source: BRIDGE, message: toPlain(message) }, origin);
          },
        },
      },
    },
    configurable: false,
    enumerable: true,
    writable: false,
  });

  window.addEventListener("message", (event: MessageEvent<unknown>) => {
    if (event.source !== parentWindow || event.origin !== origin) return;
    const data = event.data as { source?: unknown; event?: unknown; payload?: unknown } | null;
    if (!data || data.source !== HOST || typeof data.event !== "string") return;
    const miniKit = (window as unknown as { MiniKit?: { trigger?: (name: string, payload: unknown) => void } }).MiniKit;
    if (typeof miniKit?.trigger !== "function") {
      console.warn(`[World App simulator] MiniKit is not installed; ${data.event} dropped`);
      return;
    }
    miniKit.trigger(data.event, data.payload);
  });

  if (clockOffsetMs > 0) {
    const RealDate = Date;
    class PhoneDate extends RealDate {
      constructor(...args: ConstructorParameters<DateConstructor> | []) {
        if (args.length === 0) super(RealDate.now() + clockOffsetMs);
        else super(...args);
      }
      static override now(): number {
        return RealDate.now() + clockOffsetMs;
      }
    }
    window.Date = PhoneDate as DateConstructor;
  }

  // World App's username service (MiniKit.getUserByAddress) is played by the simulator.
  const USERNAMES = "https://usernames.worldcoin.org/api/v1";
  const originalFetch = window.fetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith(`${USERNAMES}/`)) return originalFetch(`/__simulator/usernames/${url.slice(USERNAMES.length + 1)}`, init);
    return originalFetch(input, init);
  };
}
