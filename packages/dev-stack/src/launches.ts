import path from "node:path";
import { DEV_PROFILE } from "@oro/clients";
import { startApi } from "./api.js";
import { startLocalChain } from "./chain.js";
import type { ServiceName } from "./env.js";
import { startIndexer } from "./indexer.js";
import type { Service } from "./processes.js";
import { startSimulator } from "./simulator.js";
import { buildWeb, serveWeb, startWebDev } from "./web.js";

export const CHAIN_ID = DEV_PROFILE.chainId;

/** Where this run's services listen and keep their data. */
export interface StackLayout {
  mode: "start" | "dev";
  host: string;
  ports: Record<ServiceName, number>;
  /** This run's data (`data/run-…`). */
  runDir: string;
}

/** How one service comes up: the progress line, then the start, which resolves with what is running (one line). */
export interface Launch {
  message: string;
  run: (onStarted: (service: Service) => void, logFile: string | undefined) => Promise<string>;
}

/** What a launch that the stack serves itself needs of it: to stop with it, and to hear that it is stopping. */
export interface StackLifecycle {
  stopping(): boolean;
  throwIfStopping(): void;
  onStop(close: () => Promise<void>): void;
}

/** The services' addresses, and who may call the API (the web app and the simulator, by either host name). */
function addresses({ host, ports }: StackLayout) {
  const hosts = (port: number) => [`${host}:${port}`, `localhost:${port}`];
  const webAndSimulator = [...hosts(ports.web), ...hosts(ports.simulator)];
  return {
    rpcUrl: `http://${host}:${ports.chain}`,
    indexerUrl: `http://${host}:${ports.indexer}`,
    apiUrl: `http://${host}:${ports.api}`,
    webUrl: `http://${host}:${ports.web}`,
    siweDomains: webAndSimulator,
    origins: webAndSimulator.map((domain) => `http://${domain}`),
  };
}

export function chainLaunch(layout: StackLayout): Launch {
  return {
    message: "starting the local chain and deploying the contracts",
    run: async (onStarted, logFile) => {
      await startLocalChain({ host: layout.host, port: layout.ports.chain, logFile, onStarted });
      return `chain id ${CHAIN_ID}, every contract deployed`;
    },
  };
}

export function indexerLaunch(layout: StackLayout): Launch {
  return {
    message: "starting the indexer (PGlite)",
    run: async (onStarted, logFile) => {
      await startIndexer({
        rpcUrl: addresses(layout).rpcUrl,
        port: layout.ports.indexer,
        mode: layout.mode,
        pgliteRoot: path.join(layout.runDir, "indexer"),
        logFile,
        onStarted,
      });
      return "PGlite, indexing the local chain";
    },
  };
}

export function apiLaunch(layout: StackLayout): Launch {
  const { rpcUrl, indexerUrl, webUrl, origins, siweDomains } = addresses(layout);
  return {
    message: "starting the API (PGlite, payout worker, reminder scheduler)",
    run: async (onStarted, logFile) => {
      await startApi({
        rpcUrl,
        indexerUrl,
        port: layout.ports.api,
        dataDir: path.join(layout.runDir, "api", "pglite"),
        corsOrigins: origins,
        siweDomains,
        publicOrigin: webUrl,
        watch: layout.mode === "dev",
        logFile,
        onStarted,
      });
      return "PGlite, payout worker and reminders on (docs at /api/docs)";
    },
  };
}

/** `start`: a production build served by the stack itself (/api forwarded); `dev`: the Vite dev server. */
export function webLaunch(layout: StackLayout, lifecycle: StackLifecycle): Launch {
  const { rpcUrl, apiUrl } = addresses(layout);
  if (layout.mode === "dev") {
    return {
      message: "starting the web app (Vite dev server)",
      run: async (onStarted, logFile) => {
        await startWebDev({ rpcUrl, apiUrl, port: layout.ports.web, logFile, onStarted });
        return "Vite dev server, hot reload";
      },
    };
  }
  return {
    message: "building the web app (production build)",
    run: async (onStarted, logFile) => {
      const distDir = path.join(layout.runDir, "web");
      await buildWeb({ outDir: distDir, rpcUrl, logFile, onStarted });
      lifecycle.throwIfStopping();
      const server = await serveWeb({ distDir, apiUrl, host: layout.host, port: layout.ports.web });
      lifecycle.onStop(() => server.close());
      if (lifecycle.stopping()) await server.close();
      return "production build; /api forwarded to the API";
    },
  };
}

/** `showsAt` hears where the simulator's page is: under a path of its own (the rest of its origin is the mini app). */
export function simulatorLaunch(layout: StackLayout, showsAt: (url: string) => void): Launch {
  const { rpcUrl, apiUrl, webUrl } = addresses(layout);
  return {
    message: "starting the World App simulator",
    run: async (onStarted, logFile) => {
      const running = await startSimulator({
        host: layout.host,
        port: layout.ports.simulator,
        miniAppUrl: webUrl,
        chainRpcUrl: rpcUrl,
        apiUrl,
        chainId: CHAIN_ID,
        logFile,
        onStarted,
      });
      showsAt(running.url);
      return "the mini app inside a simulated World App";
    },
  };
}
