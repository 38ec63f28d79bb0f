/**
 * Global setup hands the running stack's addresses to the journeys through the environment (Playwright passes
 * what global setup puts in process.env to its workers): one run never reads another run's stack.
 */
export const STACK_VARIABLE = "ORO_E2E_STACK";

export interface E2eStack {
  /** The simulator page, `http://127.0.0.1:<port>/__simulator/`. */
  simulatorUrl: string;
  /** The API's origin (routes under /api). */
  apiUrl: string;
  /**
   * The API's Prometheus metrics (its own port): the journeys count the reminder scheduler's passes there. Unset in
   * the rehearsal, whose API replicas serve theirs to their own network only.
   */
  apiMetricsUrl?: string;
  rpcUrl: string;
  indexerUrl: string;
  logsDir: string;
}

export function readStack(): E2eStack {
  const value = process.env[STACK_VARIABLE];
  if (!value) throw new Error(`${STACK_VARIABLE} is not set: the journeys run through playwright test, whose global setup starts the stack`);
  return JSON.parse(value) as E2eStack;
}
