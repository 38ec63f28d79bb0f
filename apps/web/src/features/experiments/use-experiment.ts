import { useState } from "react";
import { env } from "../../env";
import { assignVariant, browserCookies } from "./assignment";
import { EXPERIMENTS, type ExperimentName, type Variant } from "./experiments";

/** Whether an operator switched the experiment on (VITE_EXPERIMENTS lists the numbers that are on). */
export function isExperimentOn(name: ExperimentName): boolean {
  const experiment = EXPERIMENTS[name];
  return experiment.onByDefault || env.experimentsOn.includes(experiment.id);
}

/** The user's variant of an experiment, fixed for the life of the component (and by the cookie, for 7 days). */
export function useExperiment(name: ExperimentName): Variant {
  const [variant] = useState(() => assignVariant(EXPERIMENTS[name], { enabled: isExperimentOn(name), cookies: browserCookies }));
  return variant;
}
