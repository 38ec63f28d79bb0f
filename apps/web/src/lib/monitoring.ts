/** The small analytics interface: product events with flat properties. */
export interface Monitoring {
  event(name: string, properties?: Record<string, string | number | boolean>): void;
  /** Whether events go out at all: World App's `is_optional_analytics` (the debug page shows it). */
  analyticsAllowed(): boolean;
}

/** World App's launch property: the user allows optional analytics. Outside World App, only development logs. */
export function worldAppAllowsAnalytics(): boolean | null {
  const worldApp = (window as { WorldApp?: { is_optional_analytics?: unknown } }).WorldApp;
  return worldApp ? worldApp.is_optional_analytics === true : null;
}

/**
 * Development logs events to the console; production sends nothing until an analytics backend is chosen. Either way
 * nothing leaves when World App says the user does not allow optional analytics.
 */
export function createMonitoring(log: boolean, allowed: () => boolean | null = worldAppAllowsAnalytics): Monitoring {
  const analyticsAllowed = () => allowed() ?? log;
  return {
    event(name, properties) {
      if (!analyticsAllowed()) return;
      if (log) console.info(`[monitoring] ${name}`, properties ?? {});
    },
    analyticsAllowed,
  };
}
