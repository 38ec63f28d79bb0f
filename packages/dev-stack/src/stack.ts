import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { SERVICE_NAMES, type ServiceName } from "./env.js";
import { apiLaunch, chainLaunch, indexerLaunch, simulatorLaunch, webLaunch, type Launch, type StackLayout, type StackLifecycle } from "./launches.js";
import { processAlive } from "./proc.js";
import type { Service } from "./processes.js";
import { locateSimulator } from "./simulator.js";
import { recordCommand, removeState, writeState } from "./state.js";

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
    mkdirSync(this.logsDir, { recursive: true });
    for (const name of SERVICE_NAMES) rmSync(path.join(this.logsDir, `${name}.log`), { force: true });
    this.sweepOldRuns();
    mkdirSync(this.runDir, { recursive: true });
    this.save();

    const layout: StackLayout = { mode: this.options.mode, host: this.host, ports: this.options.ports, runDir: this.runDir };
    const lifecycle: StackLifecycle = {
      stopping: () => this.stopping,
      throwIfStopping: () => this.throwIfStopping(),
      onStop: (close) => this.closers.push(close),
    };
    const chain = this.step("chain", chainLaunch(layout));
    const backend = chain.then(() => Promise.all([this.step("indexer", indexerLaunch(layout)), this.step("api", apiLaunch(layout))]));
    const web = this.step("web", webLaunch(layout, lifecycle));
    const located = locateSimulator();
    const simulator =
      "unavailable" in located
        ? Promise.resolve(this.markUnavailable("simulator", located.unavailable))
        : this.step("simulator", simulatorLaunch(layout, (url) => (this.status.simulator.url = url)));

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

  private step(name: ServiceName, { message, run }: Launch): Promise<void> {
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
