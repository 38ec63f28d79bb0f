import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { RequestMetrics } from "../src/lib/request-metrics.js";

const buckets = [0.005, 0.01, 0.1];
const observations: [route: string, method: string, status: number, seconds: number][] = [
  ["/api/streaks/current", "GET", 200, 0.005],
  ["/api/streaks/current", "GET", 200, 0.004],
  ["/api/streaks/current", "GET", 429, 0.07],
  ["/api/streaks/current", "POST", 404, 0.2],
  ["unmatched", "GET", 404, 3],
  ['/api/a"b\\c', "GET", 200, 0.01],
];

describe("request metrics", () => {
  it("write the same series as prom-client's Counter and Histogram fed the same requests", async () => {
    const ours = new Registry();
    const metrics = new RequestMetrics({
      requests: { name: "requests_total", help: "requests" },
      duration: { name: "duration_seconds", help: "duration", buckets },
    });
    for (const metric of metrics.metrics()) ours.registerMetric(metric);

    const theirs = new Registry();
    const requests = new Counter({ name: "requests_total", help: "requests", labelNames: ["route", "method", "status"], registers: [theirs] });
    const duration = new Histogram({ name: "duration_seconds", help: "duration", labelNames: ["route", "method"], buckets, registers: [theirs] });

    for (const [route, method, status, seconds] of observations) {
      metrics.record(route, method, status, seconds);
      requests.inc({ route, method, status: String(status) });
      duration.observe({ route, method }, seconds);
    }
    const lines = async (registry: Registry) => (await registry.metrics()).split("\n").filter(Boolean).sort();
    const written = await lines(ours);
    expect(written).toEqual(await lines(theirs));
    // Read as Prometheus would: "less than or equal" buckets, cumulative.
    expect(written).toContain('duration_seconds_bucket{le="0.005",route="/api/streaks/current",method="GET"} 2');
    expect(written).toContain('duration_seconds_bucket{le="+Inf",route="unmatched",method="GET"} 1');
    expect(written).toContain('requests_total{route="/api/streaks/current",method="GET",status="429"} 1');

    ours.resetMetrics();
    expect((await ours.metrics()).split("\n").filter((line) => line && !line.startsWith("#"))).toEqual([]);
  });
});
