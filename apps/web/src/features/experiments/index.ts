export { browserCookies, clearAssignment, experimentCookieName } from "./assignment";
export { EXPERIMENTS, type ExperimentName } from "./experiments";
export { isExperimentOn, useExperiment } from "./use-experiment";
