import type { Gauge } from "prom-client";

/** One value a scrape-time read found: the gauge, its labels, the value. */
export type GaugeValue = [gauge: Gauge, labels: Record<string, string>, value: number];

/**
 * Sets what a scrape-time read found, only once the whole read has answered within `deadlineMs`; a read that
 * fails or runs late removes every series of `gauges` instead, so a dependency that stops answering shows as
 * missing data (and a counted error) rather than its last value frozen, which would keep alerts on it quiet.
 * Returns the error, if any.
 */
export async function readIntoGauges(gauges: Gauge[], read: () => Promise<GaugeValue[]>, deadlineMs: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const values = await Promise.race([
      read(),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error("scrape deadline")), deadlineMs);
        timer.unref();
      }),
    ]);
    // A gauge whose labelled series are all listed starts afresh: a label that is no longer read goes away.
    for (const gauge of gauges) forget(gauge);
    for (const [gauge, labels, value] of values) gauge.set(labels, value);
    return undefined;
  } catch (error) {
    for (const gauge of gauges) forget(gauge);
    return error;
  } finally {
    clearTimeout(timer);
  }
}

/** Removes every series of a gauge: `reset()` leaves an unlabelled gauge at 0, `remove({})` takes that one too. */
function forget(gauge: Gauge): void {
  gauge.reset();
  gauge.remove({});
}
