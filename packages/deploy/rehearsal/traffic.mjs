// Steady GET traffic for the fault drills: `node traffic.mjs <url> <seconds> [concurrency] [timeout ms] [pause ms]`.
// Each worker sends one request after another (keep-alive) for the given time, pausing between them (so that the
// traffic stays under the API's per-address rate limit); the summary (JSON on the last line of stdout) counts
// answers by status, network errors and timeouts, the 200s flagged `"stale": true`, and gives latencies (p50, p99,
// max) overall and per second, so a drill can say when requests failed or slowed down. SIGTERM ends it early.
const [url, secondsArg = "30", concurrencyArg = "4", timeoutArg = "10000", pauseArg = "0"] = process.argv.slice(2);
if (!url) {
  console.error("usage: node traffic.mjs <url> <seconds> [concurrency] [timeout ms] [pause ms]");
  process.exit(2);
}
const seconds = Number(secondsArg);
const concurrency = Number(concurrencyArg);
const timeoutMs = Number(timeoutArg);
const pauseMs = Number(pauseArg);
let stale = 0;
const started = Date.now();
let end = started + seconds * 1000;
// SIGTERM ends the traffic early (a drill that does not know beforehand how long it takes), with the summary.
process.on("SIGTERM", () => {
  end = Date.now();
});
const byStatus = {};
const failures = [];
const latencies = [];
const perSecond = [];

async function worker() {
  while (Date.now() < end) {
    const sent = Date.now();
    let outcome;
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      const body = await answer.text();
      outcome = String(answer.status);
      if (answer.ok && /"stale":\s*true/.test(body)) stale += 1;
    } catch (error) {
      outcome = error?.name === "TimeoutError" ? "timeout" : `error:${error?.cause?.code ?? error?.name ?? "unknown"}`;
    }
    const took = Date.now() - sent;
    latencies.push(took);
    byStatus[outcome] = (byStatus[outcome] ?? 0) + 1;
    const second = Math.floor((sent - started) / 1000);
    const bucket = (perSecond[second] ??= { second, requests: 0, failed: 0, maxMs: 0 });
    bucket.requests += 1;
    bucket.maxMs = Math.max(bucket.maxMs, took);
    if (!/^2\d\d$/.test(outcome)) {
      bucket.failed += 1;
      if (failures.length < 20) failures.push({ atMs: sent - started, outcome, tookMs: took });
    }
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

await Promise.all(Array.from({ length: concurrency }, worker));
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
const failed = Object.entries(byStatus)
  .filter(([outcome]) => !/^2\d\d$/.test(outcome))
  .reduce((sum, [, count]) => sum + count, 0);
console.log(
  JSON.stringify({
    url,
    seconds,
    concurrency,
    requests: latencies.length,
    failed,
    byStatus,
    stale,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: latencies.at(-1) ?? 0,
    failures,
    perSecond: perSecond.filter(Boolean),
  }),
);
