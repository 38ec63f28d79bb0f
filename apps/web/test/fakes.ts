import type { Monitoring } from "../src/lib/monitoring";
import type { Services } from "../src/lib/services";
import { writeStored } from "../src/lib/storage";
import { fakeApi } from "./fake-api";
import { fakeChain, fakeChainState } from "./fake-chain";
import { DAY, devVerification, USER, type FakeOptions } from "./fake-values";
import { fakeWallet } from "./fake-wallet";

// Test doubles for the app's services: what a test does not set answers like a healthy local stack. Each service's
// fake has its file (fake-api.ts, fake-chain.ts, fake-wallet.ts); their values and options come from fake-values.ts.
export * from "./fake-values";

export interface Fakes {
  services: Services;
  calls: { name: string; args: unknown[] }[];
  events: string[];
  opened: string[];
}

export function createFakes(options: FakeOptions = {}): Fakes {
  const calls: Fakes["calls"] = [];
  const events: string[] = [];
  const opened: string[] = [];
  const record = (name: string, ...args: unknown[]) => calls.push({ name, args });
  const state = fakeChainState(options);
  const monitoring: Monitoring = {
    event: (name, properties) => {
      events.push(name);
      record(`event:${name}`, properties);
    },
    analyticsAllowed: () => true,
  };
  return { services: { api: fakeApi(options, record), chain: fakeChain(options, state, record), wallet: fakeWallet(options, state, record, opened), monitoring }, calls, events, opened };
}

/** Puts a signed-in session (and optionally a verification) in storage, as after sign-in and verify. */
export function seedSignedIn({ verified }: { verified: boolean }): void {
  writeStored("session", { address: USER, username: "alice", token: "t", expiresAt: new Date(Date.now() + 7 * DAY * 1000).toISOString() });
  if (verified) {
    const verification = devVerification();
    writeStored("verification", {
      address: USER,
      merkleRoot: verification.merkleRoot.toString(),
      nullifierHash: verification.nullifierHash.toString(),
      proof: verification.proof.map(String),
    });
  }
}
