import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { DEV_PROFILE } from "@oro/clients";
import { startApi } from "./api.js";
import { startLocalChain } from "./chain.js";
import { SERVICE_NAMES, type ServiceName } from "./env.js";
import { startIndexer } from "./indexer.js";
import { processAlive } from "./proc.js";
import type { Service } from "./processes.js";
import { locateSimulator, startSimulator } from "./simulator.js";
import { recordCommand, removeState, writeState } from "./state.js";
import { buildWeb, serveWeb, startWebDev } from "./web.js";

export type ServiceState = "waiting" | "starting" | "ready" | "failed" | "exited" | "stopped" | "unavailable";

export interface ServiceStatus {
  name: ServiceName;
  url: string;
  state: ServiceState;
  /** What is running (when ready) or what went wrong (one line). */
  detail: string;
  logFile: string | undefined;
  /** The process, for services that run in their own (the web app of `start` is served by the stack itself). */
  service: Service | undefined;
}

export interface StackOptions {
  /** `start`: production build of the web app, services as they run in production; `dev`: watch mode. */
  mode: "start" | "dev";
  ports: Record<ServiceName, number>;
  /** Logs (`logs/<service>.log`), per-run data (`data/`) and `stack.json`. */
  stackDir: string;
  host?: string;
  /** Called with one line for each step (which service is coming up). */
  onProgress?: (message: string) => void;
}

const CHAIN_ID = DEV_PROFILE.chainId;

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
  return message.split("\n")[0] ?? message;
}

/** The whole product on one machine: chain (contracts deployed), indexer, API, web app, simulator. */
export class LocalStack {
  readonly status: Record<ServiceName, ServiceStatus>;
  readonly logsDir: string;
  readonly runDir: string;
  /** Resolves with the first service that ends by itself once it was started (a crash). */
  readonly died: Promise<ServiceStatus>;

  private readonly host: string;
  private readonly services: Service[] = [];
  private readonly closers: (() => Promise<void>)[] = [];
  private stopping = false;
  private ready = false;
  private reportDeath: (status: ServiceStatus) => void = () => undefined;

  constructor(private readonly options: StackOptions) {
    this.host = options.host ?? "127.0.0.1";
    this.logsDir = path.join(options.stackDir, "logs");
    this.runDir = path.join(options.stackDir, "data", `run-${Date.now()}-${process.pid}`);
    const url = (name: ServiceName, suffix = "") => `http://${this.host}:${options.ports[name]}${suffix}`;
    const entry = (name: ServiceName, shownUrl: string): ServiceStatus => ({
      name,
      url: shownUrl,
      state: "waiting",
      detail: "",
      logFile: path.join(this.logsDir, `${name}.log`),
      service: undefined,
    });
    this.status = {
      chain: entry("chain", url("chain")),
      indexer: entry("indexer", url("indexer")),
      api: entry("api", url("api", "/api")),
      web: entry("web", url("web")),
      simulator: entry("simulator", url("simulator")),
    };
    this.died = new Promise((resolve) => {
      this.reportDeath = resolve;
    });
  }

  /** Services in display order. */
  list(): ServiceStatus[] {
    return SERVICE_NAMES.map((name) => this.status[name]);
  }

  /** The page to open: the simulator, or the web app when there is no simulator. */
  entryUrl(): string {
    return this.status.simulator.state === "ready" ? this.status.simulator.url : this.status.web.url;
  }

  /** Starts everything; on any failure stops what started and throws (the status says which service failed). */
  async start(): Promise<void> {
    const { mode, ports } = this.options;
    mkdirSync(this.logsDir, { recursive: true });
    for (const name of SERVICE_NAMES) rmSync(path.join(this.logsDir, `${name}.log`), { force: true });
    this.sweepOldRuns();
    mkdirSync(this.runDir, { recursive: true });
    this.save();

    const rpcUrl = `http://${this.host}:${ports.chain}`;
    const indexerUrl = `http://${this.host}:${ports.indexer}`;
    const apiUrl = `http://${this.host}:${ports.api}`;
    const webUrl = `http://${this.host}:${ports.web}`;
    const hosts = (port: number) => [`${this.host}:${port}`, `localhost:${port}`];
    const origins = [...hosts(ports.web), ...hosts(ports.simulator)].map((host) => `http://${host}`);

    const chain = this.step("chain", "starting the local chain and deploying the contracts", async (onStarted, logFile) => {
      await startLocalChain({ host: this.host, port: ports.chain, logFile, onStarted });
      return `chain id ${CHAIN_ID}, every contract deployed`;
    });

    const backend = chain.then(() =>
      Promise.all([
        this.step("indexer", "starting the indexer (PGlite)", async (onStarted, logFile) => {
          await startIndexer({
            rpcUrl,
            port: ports.indexer,
            mode,
            pgliteRoot: path.join(this.runDir, "indexer"),
            logFile,
            onStarted,
          });
          return "PGlite, indexing the local chain";
        }),
        this.step("api", "starting the API (PGlite, payout worker, reminder scheduler)", async (onStarted, logFile) => {
          await startApi({
            rpcUrl,
            indexerUrl,
            port: ports.api,
            dataDir: path.join(this.runDir, "api", "pglite"),
            corsOrigins: origins,
            siweDomains: [...hosts(ports.web), ...hosts(ports.simulator)],
            publicOrigin: webUrl,
            watch: mode === "dev",
            logFile,
            onStarted,
          });
          return "PGlite, payout worker and reminders on (docs at /api/docs)";
        }),
      ]),
    );

    const web =
      mode === "start"
        ? this.step("web", "building the web app (production build)", async (onStarted, logFile) => {
            const distDir = path.join(this.runDir, "web");
            await buildWeb({ outDir: distDir, rpcUrl, logFile, onStarted });
            this.throwIfStopping();
            const server = await serveWeb({ distDir, apiUrl, host: this.host, port: ports.web });
            this.closers.push(() => server.close());
            if (this.stopping) await server.close();
            return "production build; /api forwarded to the API";
          })
        : this.step("web", "starting the web app (Vite dev server)", async (onStarted, logFile) => {
            await startWebDev({ rpcUrl, apiUrl, port: ports.web, logFile, onStarted });
            return "Vite dev server, hot reload";
          });

    const located = locateSimulator();
    const simulator =
      "unavailable" in located
        ? Promise.resolve(this.markUnavailable("simulator", located.unavailable))
        : this.step("simulator", "starting the World App simulator", async (onStarted, logFile) => {
            const running = await startSimulator({
              host: this.host,
              port: ports.simulator,
              miniAppUrl: webUrl,
              chainRpcUrl: rpcUrl,
              apiUrl,
              chainId: CHAIN_ID,
              logFile,
              onStarted,
            });
            // Its page lives under a path of its own; the rest of its origin is the mini app.
            this.status.simulator.url = running.url;
            return "the mini app inside a simulated World App";
          });

    let failure: unknown;
    const settle = (task: Promise<unknown>) =>
      task.catch(async (error: unknown) => {
        if (failure !== undefined) return;
        failure = error;
        await this.stop();
      });
    await Promise.all([chain, backend, web, simulator].map(settle));
    if (failure !== undefined) throw failure instanceof Error ? failure : new Error(firstLine(failure));
    this.ready = true;
    this.save();
  }

  /** Stops every service (whole process groups) and deletes this run's data. Safe to call twice. */
  async stop(): Promise<void> {
    const first = !this.stopping;
    this.stopping = true;
    for (const status of this.list()) {
      if (status.state === "starting" || status.state === "ready" || status.state === "waiting") status.state = "stopped";
    }
    await Promise.all([...this.closers.map((close) => close().catch(() => undefined)), ...this.services.map((service) => service.stop())]);
    if (first) {
      rmSync(this.runDir, { recursive: true, force: true });
      removeState(this.options.stackDir);
    }
  }

  private throwIfStopping(): void {
    if (this.stopping) throw new Error("the stack is stopping");
  }

  private step(
    name: ServiceName,
    message: string,
    run: (onStarted: (service: Service) => void, logFile: string | undefined) => Promise<string>,
  ): Promise<void> {
    const status = this.status[name];
    if (this.stopping) return Promise.reject(new Error("the stack is stopping"));
    status.state = "starting";
    this.options.onProgress?.(`${message} …`);
    const onStarted = (service: Service) => this.track(name, service);
    return run(onStarted, status.logFile).then(
      (detail) => {
        this.throwIfStopping();
        status.state = "ready";
        status.detail = detail;
        this.options.onProgress?.(`${name} ready at ${status.url}`);
        this.save();
      },
      (error: unknown) => {
        if (!this.stopping && status.state !== "exited") {
          status.state = "failed";
          status.detail = firstLine(error);
        }
        throw error;
      },
    );
  }

  private markUnavailable(name: ServiceName, why: string): void {
    const status = this.status[name];
    status.state = "unavailable";
    status.detail = why;
    status.logFile = undefined;
  }

  private track(name: ServiceName, service: Service): void {
    this.services.push(service);
    const status = this.status[name];
    status.service = service;
    this.save();
    if (this.stopping) {
      void service.stop();
      return;
    }
    // A build process ends by itself; only long-running services count as dying.
    if (service.name.endsWith("build")) return;
    void service.exited.then(({ code, signal }) => {
      if (this.stopping) return;
      status.state = "exited";
      status.detail = signal ? `ended by ${signal}` : `exited with code ${code ?? "unknown"}`;
      this.reportDeath(status);
    });
  }

  private save(): void {
    // Once stopping, the state file is gone for good (a late spawn must not bring it back).
    if (this.stopping) return;
    writeState(this.options.stackDir, {
      pid: process.pid,
      mode: this.options.mode,
      ready: this.ready,
      services: this.list().map((status) => ({
        name: status.name,
        url: status.url,
        state: status.state,
        ...(status.service ? { pid: status.service.pid, command: recordCommand(status.service.pid) } : {}),
      })),
    });
  }

  /** Data folders of earlier runs whose stack command is gone (it was killed before it could clean up). */
  private sweepOldRuns(): void {
    const dataDir = path.join(this.options.stackDir, "data");
    if (!existsSync(dataDir)) return;
    for (const entry of readdirSync(dataDir)) {
      const pid = Number(/^run-\d+-(\d+)$/.exec(entry)?.[1]);
      if (Number.isInteger(pid) && pid !== process.pid && processAlive(pid)) continue;
      rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    }
  }
}
