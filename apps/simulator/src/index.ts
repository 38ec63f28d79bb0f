export { startSimulator, type RunningSimulator, type SimulatorOptions } from "./server.js";
