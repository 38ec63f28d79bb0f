export { useExperiment } from "./use-experiment";
