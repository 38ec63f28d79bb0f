import { describe, expect, it } from "vitest";
import { zeroAddress, type Address } from "viem";
import { anomalyCollector, type Anomaly } from "../../src/lib/anomalies";
import { balanceChanges, holderDelta, supplyDelta, type TransferEvent } from "../../src/lib/balances";
import { UINT256_MAX } from "../../src/lib/event-values";

const alice: Address = "0x00000000000000000000000000000000000a11ce";
const bob: Address = "0x0000000000000000000000000000000000000b0b";

/** Applies transfers to a ledger the way the handlers do, returning balances, holders and supply. */
function replay(transfers: TransferEvent[], anomalies: Anomaly[] = []) {
  const balances = new Map<Address, bigint>();
  let holders = 0;
  let supply = 0n;
  const { note, anomalies: noted } = anomalyCollector();
  for (const transfer of transfers) {
    for (const change of balanceChanges(transfer, (account) => balances.get(account) ?? 0n, note)) {
      holders += holderDelta(change);
      balances.set(change.account, change.after);
    }
    supply += supplyDelta(transfer);
  }
  anomalies.push(...noted);
  return { balances, holders, supply };
}

describe("transfers", () => {
  it("mints from the zero address: supply and the receiver's balance rise, the zero address is no account", () => {
    const { balances, holders, supply } = replay([{ from: zeroAddress, to: alice, value: 5n }]);
    expect(supply).toBe(5n);
    expect(balances.get(alice)).toBe(5n);
    expect(balances.has(zeroAddress)).toBe(false);
    expect(holders).toBe(1);
  });

  it("burns to the zero address: supply falls, and a balance at zero stops being a holder", () => {
    const { balances, holders, supply } = replay([
      { from: zeroAddress, to: alice, value: 5n },
      { from: alice, to: zeroAddress, value: 5n },
    ]);
    expect(supply).toBe(0n);
    expect(balances.get(alice)).toBe(0n);
    expect(balances.has(zeroAddress)).toBe(false);
    expect(holders).toBe(0);
  });

  it("counts holders as balances cross zero, in both directions", () => {
    const steps: TransferEvent[] = [
      { from: zeroAddress, to: alice, value: 10n }, // alice holds
      { from: alice, to: bob, value: 4n }, // bob holds too
      { from: alice, to: bob, value: 6n }, // alice drops to zero
      { from: bob, to: alice, value: 1n }, // alice back
    ];
    const holdersAfterEach = steps.map((_, i) => replay(steps.slice(0, i + 1)).holders);
    expect(holdersAfterEach).toEqual([1, 2, 1, 2]);
    expect(replay(steps).supply).toBe(10n);
  });

  it("leaves holders and balances alone on a zero-value transfer or a transfer to oneself", () => {
    const { balances, holders } = replay([
      { from: zeroAddress, to: alice, value: 3n },
      { from: alice, to: bob, value: 0n },
      { from: alice, to: alice, value: 3n },
    ]);
    expect(balances.get(alice)).toBe(3n);
    expect(balances.get(bob)).toBe(0n);
    expect(holders).toBe(1);
  });

  it("floors a balance at zero on a transfer larger than it (the token never emits one), and says so", () => {
    const anomalies: Anomaly[] = [];
    const { balances, holders } = replay([{ from: zeroAddress, to: alice, value: 2n }, { from: alice, to: bob, value: 5n }], anomalies);
    expect(balances.get(alice)).toBe(0n);
    expect(balances.get(bob)).toBe(5n);
    expect(holders).toBe(1);
    expect(anomalies).toEqual([{ kind: "amount_out_of_range", detail: `the balance of ${alice} would be -3: stored 0` }]);
  });

  it("caps a balance at 2^256 - 1, and says so", () => {
    const anomalies: Anomaly[] = [];
    const { balances } = replay([{ from: zeroAddress, to: alice, value: UINT256_MAX }, { from: zeroAddress, to: alice, value: 1n }], anomalies);
    expect(balances.get(alice)).toBe(UINT256_MAX);
    expect(anomalies.map((anomaly) => anomaly.kind)).toEqual(["amount_out_of_range"]);
  });

  it("notes nothing for the token's own transfers", () => {
    const anomalies: Anomaly[] = [];
    replay([{ from: zeroAddress, to: alice, value: 3n }, { from: alice, to: bob, value: 3n }, { from: bob, to: zeroAddress, value: 3n }], anomalies);
    expect(anomalies).toEqual([]);
  });

  it("reports holder deltas", () => {
    expect(holderDelta({ before: 0n, after: 1n })).toBe(1);
    expect(holderDelta({ before: 1n, after: 0n })).toBe(-1);
    expect(holderDelta({ before: 1n, after: 2n })).toBe(0);
    expect(holderDelta({ before: 0n, after: 0n })).toBe(0);
  });
});
