/** The small analytics interface: product events with flat properties. */
export interface Monitoring {
  event(name: string, properties?: Record<string, string | number | boolean>): void;
}

/** Development logs events to the console; production sends nothing until an analytics backend is chosen. */
export function createMonitoring(log: boolean): Monitoring {
  return {
    event(name, properties) {
      if (log) console.info(`[monitoring] ${name}`, properties ?? {});
    },
  };
}
