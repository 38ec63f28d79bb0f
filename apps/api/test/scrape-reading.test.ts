import { Gauge, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { readIntoGauges } from "../src/lib/scrape-reading.js";

// Issue 38: a scrape-time read that stops answering must not leave its last value in place (the wallet, funding and
// lag alerts would stay quiet on a frozen number); its series go away and the failure is returned.
describe("readIntoGauges", () => {
  const registry = new Registry();
  const lag = new Gauge({ name: "lag_blocks", help: "unlabelled", registers: [registry] });
  const funds = new Gauge({ name: "funds", help: "labelled", labelNames: ["kind"] as const, registers: [registry] });
  const scraped = () => registry.metrics();

  it("sets what a read found, then removes every series when a later read fails", async () => {
    expect(await readIntoGauges([lag, funds], () => Promise.resolve([[lag, {}, 7], [funds, { kind: "balance" }, 100], [funds, { kind: "outstanding" }, 50]]), 1_000)).toBeUndefined();
    expect(await scraped()).toMatch(/^lag_blocks 7$/m);
    expect(await scraped()).toMatch(/^funds\{kind="balance"\} 100$/m);

    const error = await readIntoGauges([lag, funds], () => Promise.reject(new Error("connection refused")), 1_000);
    expect(error).toEqual(new Error("connection refused"));
    const text = await scraped();
    expect(text).not.toMatch(/^lag_blocks /m);
    expect(text).not.toMatch(/^funds\{/m);
  });

  it("removes the series of a read that runs past its deadline, and ignores what it finds afterwards", async () => {
    await readIntoGauges([lag], () => Promise.resolve([[lag, {}, 3]]), 1_000);
    let finish: (() => void) | undefined;
    const late = new Promise<void>((resolve) => (finish = resolve));
    const error = await readIntoGauges([lag], async () => {
      await late;
      return [[lag, {}, 99]];
    }, 50);
    expect(String(error)).toContain("scrape deadline");
    finish?.();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await scraped()).not.toMatch(/^lag_blocks /m);
  });

  it("drops a label a later read no longer finds", async () => {
    await readIntoGauges([funds], () => Promise.resolve([[funds, { kind: "balance" }, 1], [funds, { kind: "outstanding" }, 2]]), 1_000);
    await readIntoGauges([funds], () => Promise.resolve([[funds, { kind: "balance" }, 1]]), 1_000);
    expect(await scraped()).not.toMatch(/kind="outstanding"/);
  });
});
