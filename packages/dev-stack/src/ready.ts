import type { Service } from "./processes.js";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function exitedError(service: Service, what: string): Error {
  return new Error(`${service.name} exited before ${what}:\n${service.output().slice(-4_000)}`);
}

/** Polls `url` until it answers 200; throws after `timeoutMs`, or as soon as `service` exits. */
export function waitForHttpOk(url: string, timeoutMs: number, service?: Service): Promise<void> {
  return waitFor(`${url} was ready`, timeoutMs, service, () =>
    fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
      async (response) => {
        await response.body?.cancel();
        return response.status === 200;
      },
      () => false,
    ),
  );
}

/** Polls `check` until it returns true; throws after `timeoutMs`, or as soon as `service` exits. */
export async function waitFor(what: string, timeoutMs: number, service: Service | undefined, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (service && !service.running()) throw exitedError(service, what);
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}${service ? `:\n${service.output().slice(-4_000)}` : ""}`);
    await pause(150);
  }
}

/** Calls a JSON-RPC method once; throws on a transport error or an RPC error. */
export async function rpcCall<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`${method} answered HTTP ${response.status}`);
  const body = (await response.json()) as { result?: T; error?: { message?: string } };
  if (body.error) throw new Error(`${method} failed: ${body.error.message ?? "unknown error"}`);
  return body.result as T;
}

/** Polls the RPC until it answers `eth_chainId`; returns the chain id. */
export async function waitForRpc(rpcUrl: string, timeoutMs: number, service?: Service): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (service && !service.running()) throw exitedError(service, `${rpcUrl} answered`);
    try {
      return Number(await rpcCall<string>(rpcUrl, "eth_chainId"));
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${rpcUrl} did not answer within ${timeoutMs} ms: ${(error as Error).message}`);
    }
    await pause(150);
  }
}
