export { freePort, isPortFree } from "./ports.js";
export { startService, signalGroup, groupAlive, type Service, type StartServiceOptions, type ExitStatus } from "./processes.js";
export { descendantsOf, processAlive, processesInGroup, listProcesses, type ProcessInfo } from "./proc.js";
export { waitForHttpOk, waitForRpc, rpcCall } from "./ready.js";
export { workspaceRoot, workspacePaths, binOf } from "./workspace.js";
export { startLocalChain, type LocalChain, type LocalChainOptions } from "./chain.js";
export { startIndexer, type RunningIndexer, type IndexerOptions } from "./indexer.js";
export { startApi, type RunningApi, type ApiOptions } from "./api.js";
export { buildWeb, serveWeb, startWebDev, CONTENT_TYPES, fileAt, type BuildWebOptions, type ServeWebOptions, type WebServer, type WebDevServer, type WebDevOptions } from "./web.js";
export {
  locateSimulator,
  startSimulator,
  type RunningSimulator,
  type SimulatorModule,
  type SimulatorOptions,
  type StartSimulatorOptions,
} from "./simulator.js";
export { LocalStack, type ServiceState, type ServiceStatus, type StackOptions } from "./stack.js";
export { loadStackConfig, PORT_VARIABLES, SERVICE_NAMES, StackConfigError, type ServiceName, type StackConfig } from "./env.js";
export { readState, stateFile, type StackState } from "./state.js";
export { recordBenchFigure, type BenchFigure } from "./bench-figures.js";
