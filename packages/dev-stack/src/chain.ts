import { freePort } from "./ports.js";
import { startService, type Service } from "./processes.js";
import { waitForRpc } from "./ready.js";
import { binOf, workspacePaths } from "./workspace.js";
import { inheritedEnv } from "./env.js";

export interface LocalChain {
  rpcUrl: string;
  host: string;
  port: number;
  chainId: number;
  service: Service;
  stop(): Promise<void>;
}

export interface LocalChainOptions {
  /** Default: a free port the OS picks. */
  port?: number;
  host?: string;
  /** Reaches the contracts' env.ts (for example ORO_WAIT_BETWEEN_MINTS). */
  env?: Record<string, string>;
  logFile?: string;
  /** Called with the process as soon as it is spawned (so that a caller can stop it while it starts). */
  onStarted?: (service: Service) => void;
  timeoutMs?: number;
}

/**
 * Starts the contracts package's local chain (`hardhat chain`: Hardhat's node, with every contract deployed
 * as soon as it listens) and resolves once the deploy is done ("local chain ready") and the RPC answers.
 */
export async function startLocalChain(options: LocalChainOptions = {}): Promise<LocalChain> {
  const { contracts } = workspacePaths();
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? (await freePort(host));
  const service = startService("chain", binOf(contracts, "hardhat"), ["chain"], {
    cwd: contracts,
    env: { ...inheritedEnv(), ...options.env, CHAIN_HOST: host, CHAIN_PORT: String(port), LOCAL_RPC_URL: "" },
    ...(options.logFile ? { logFile: options.logFile } : {}),
  });
  options.onStarted?.(service);
  const rpcUrl = `http://${host}:${port}`;
  const timeoutMs = options.timeoutMs ?? 180_000;
  try {
    await service.waitForOutput("local chain ready", timeoutMs);
    const chainId = await waitForRpc(rpcUrl, 30_000, service);
    return { rpcUrl, host, port, chainId, service, stop: () => service.stop() };
  } catch (error) {
    await service.stop();
    throw error;
  }
}
