import { loadSimulatorEnv } from "./env.js";
import { startSimulator } from "./server.js";

const simulator = await startSimulator(loadSimulatorEnv());
console.log(`World App simulator: ${simulator.url}`);
const stop = () => {
  void simulator.close().then(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
