import hre from "hardhat";
import { expect } from "chai";
import fc from "fast-check";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { decodeFunctionData, encodeFunctionData, getAddress, parseGwei, type Abi, type Address } from "viem";
import {
  devNullifierHash,
  devSessionId,
  devSessionSeed,
  devWorldId4Nullifier,
  type SessionProof,
  type UniquenessProof,
} from "@oro/clients";
import { FIXTURES, RP_ID, VERIFIER_VERSIONS, WAIT_BETWEEN_MINTS, mintTo, proofFor, type Deployment, type Oro, type Wallet } from "./fixtures";
import { at } from "./helpers";
import { ACTION4, completion, now, proofForSession, session, uniqueness } from "./world-id-4-proofs";

// An attacker who sees every pending transaction (automining off; a higher tip puts theirs first in the block) and
// who is a human too: they hold World ID 3.0 and 4.0 humans of their own and can make any proof those humans can
// make (any signal, any session of their own), but not a victim's. For every entry point, every way of copying,
// redirecting or recombining a victim's pending proofs with their own is tried ahead of the victim; the victim's
// app then does what it does after a failure (read the chain, send again with a fresh session proof). Whatever the
// order, each human ends with exactly the outcome they asked for, and no human claims twice in a wait.

const THIRTY_DAYS = 30n * 86_400n;
/** The victim's fees, and the attacker's higher tip, which orders their transactions first. */
const VICTIM_FEES = { maxFeePerGas: parseGwei("20"), maxPriorityFeePerGas: parseGwei("1") };
const ATTACKER_FEES = { maxFeePerGas: parseGwei("40"), maxPriorityFeePerGas: parseGwei("10") };
const GAS = 3_000_000n;

type Call = { functionName: string; args: readonly unknown[] };
type EnrolArgs = readonly [Address, bigint, SessionProof, UniquenessProof];
type MoveArgs = readonly [Address, bigint, bigint, bigint, UniquenessProof, readonly bigint[], SessionProof];

/** The calls in the contract's parameter order, from their parts in the order the design names them. */
const enrolCall = (receiver: Address, u: UniquenessProof, s: SessionProof, seed: bigint): Call =>
  ({ functionName: "enrolInWorldId4Session", args: [receiver, seed, s, u] });
const moveCall = (receiver: Address, root: bigint, nullifierHash: bigint, proof: readonly bigint[], u: UniquenessProof, seed: bigint, s: SessionProof): Call =>
  ({ functionName: "moveToWorldId4Session", args: [receiver, root, nullifierHash, seed, u, proof, s] });

/** A human as the tests know them: a 3.0 nullifier hash (if they have a 3.0 path) and a 4.0 enrolment nullifier. */
interface Human {
  name: string;
  wallet: Wallet;
  worldId3: boolean;
  /** Sessions this human created, by seed number: what their own app would send. */
  sessions: bigint[];
}

const human3 = (human: Human) => devNullifierHash(human.name);
const human4 = (human: Human) => devWorldId4Nullifier(human.name, RP_ID, ACTION4);

async function mine(): Promise<void> {
  await hre.network.provider.send("evm_mine", []);
}

async function send(oro: Oro, from: Wallet, call: Call, fees: typeof VICTIM_FEES): Promise<void> {
  // The ABI as a plain Abi: the calls are built and decoded at run time, by name.
  const abi: Abi = oro.abi;
  const data = encodeFunctionData({ abi, functionName: call.functionName, args: call.args });
  await from.sendTransaction({ to: oro.address, data, gas: GAS, ...fees, account: from.account, chain: from.chain });
}

/** The pending transactions to the token, decoded: what anyone watching the mempool reads. */
async function pendingCalls(deployment: Deployment): Promise<Array<{ from: Address; call: Call }>> {
  const block = await deployment.publicClient.getBlock({ blockTag: "pending", includeTransactions: true });
  return block.transactions
    .filter((tx) => tx.to !== null && getAddress(tx.to) === getAddress(deployment.oro.address))
    .map((tx) => {
      const abi: Abi = deployment.oro.abi;
      const { functionName, args = [] } = decodeFunctionData({ abi, data: tx.input });
      return { from: getAddress(tx.from), call: { functionName, args } };
    });
}

/** Every enrolment the chain records: human, session, seed, receiver and the 3.0 human it moved from. */
async function enrolments(oro: Oro) {
  const logs = await oro.getEvents.WorldId4Enrolled({}, { fromBlock: 0n });
  return logs.map((log) => {
    const { receiver, human, sessionId, sessionSeed, movedFrom } = log.args as { receiver: Address; human: bigint; sessionId: bigint; sessionSeed: bigint; movedFrom: bigint };
    return { receiver: getAddress(receiver), human, sessionId, sessionSeed, movedFrom };
  });
}

/** Each human's mint times, whichever path minted (3.0 by nullifier hash; 4.0 by the session's enrolled human). */
async function mintTimesByHuman(deployment: Deployment): Promise<Map<string, bigint[]>> {
  const { oro, publicClient } = deployment;
  const sessionsToHuman = new Map<bigint, string>();
  for (const enrolled of await enrolments(oro)) {
    // A moved human stays their 3.0 self; a new one is their enrolment nullifier.
    sessionsToHuman.set(enrolled.sessionId, enrolled.movedFrom !== 0n ? `3:${enrolled.movedFrom}` : `4:${enrolled.human}`);
  }
  const times = new Map<string, bigint[]>();
  const add = async (key: string, blockNumber: bigint) => {
    const block = await publicClient.getBlock({ blockNumber });
    times.set(key, [...(times.get(key) ?? []), block.timestamp]);
  };
  for (const log of await oro.getEvents.Minted({}, { fromBlock: 0n })) {
    await add(`3:${(log.args as { nullifierHash: bigint }).nullifierHash}`, log.blockNumber);
  }
  for (const log of await oro.getEvents.MintedWithSession({}, { fromBlock: 0n })) {
    const key = sessionsToHuman.get((log.args as { sessionId: bigint }).sessionId);
    if (key === undefined) throw new Error("a session minted before any enrolment named it");
    await add(key, log.blockNumber);
  }
  return times;
}

/** No human minted twice within one wait, whatever path and receiver. */
async function expectOneClaimPerWait(deployment: Deployment): Promise<void> {
  for (const [key, times] of await mintTimesByHuman(deployment)) {
    const sorted = [...times].sort((a, b) => (a < b ? -1 : 1));
    for (let i = 1; i < sorted.length; i++) {
      expect(at(sorted, i) - at(sorted, i - 1) >= WAIT_BETWEEN_MINTS, `${key} minted twice within a wait`).to.equal(true);
    }
  }
}

/** Every enrolment that names an honest human's 3.0 self, 4.0 self or session is exactly what that human asked for. */
async function expectNoHonestHumanSplit(oro: Oro, honest: readonly Human[]): Promise<void> {
  const recorded = await enrolments(oro);
  for (const human of honest) {
    const own = human.sessions.map((seed) => devSessionId(human.name, seed));
    const naming = recorded.filter((e) => e.human === human4(human) || own.includes(e.sessionId) || (human.worldId3 && e.movedFrom === human3(human)));
    expect(naming.length, `${human.name} is named by more than one enrolment`).to.be.at.most(1);
    const [enrolled] = naming;
    if (!enrolled) continue;
    const seedNumber = human.sessions.find((seed) => devSessionId(human.name, seed) === enrolled.sessionId);
    expect(seedNumber, `${human.name}'s human was enrolled into a session they did not create`).to.not.equal(undefined);
    expect(enrolled).to.deep.equal({
      receiver: getAddress(human.wallet.account.address),
      human: human4(human),
      sessionId: enrolled.sessionId,
      sessionSeed: devSessionSeed(human.name, seedNumber ?? 0n),
      movedFrom: human.worldId3 ? human3(human) : 0n,
    });
  }
}

/** What an honest app sends to enrol or move `human` into their newest session (a fresh completing proof each time). */
async function honestEnrolment(human: Human, enrolment?: UniquenessProof): Promise<Call> {
  const seed = at(human.sessions, human.sessions.length - 1);
  const sessionId = devSessionId(human.name, seed);
  const sessionSeed = devSessionSeed(human.name, seed);
  const receiver = human.wallet.account.address;
  const t = await now();
  const genesisMin = human.worldId3 ? 0n : undefined;
  // Kept from the first try: World App discloses the enrolment nullifier once.
  const u = enrolment ?? uniqueness(human.name, receiver, sessionId, t, { expiresAtMin: t + THIRTY_DAYS, genesisMin });
  if (!human.worldId3) {
    return enrolCall(receiver, u, completion(sessionId, receiver, sessionSeed, 0n, u.nullifier, t), sessionSeed);
  }
  const proof3 = proofForSession(human.name, receiver, sessionId);
  return moveCall(receiver, proof3.root, proof3.nullifierHash, proof3.proof, u, sessionSeed, completion(sessionId, receiver, sessionSeed, proof3.nullifierHash, u.nullifier, t, { genesisMin: 0n }));
}

/** The attacker's humans: one with a 3.0 path and history, one new under 4.0, and a session of each. */
interface Attacker {
  wallet: Wallet;
  worldId3: string;
  worldId4: string;
  seed: bigint;
}

/**
 * Every transaction the attacker can build from a victim's pending call and their own humans' proofs: copies,
 * redirections, another seed, and each of the victim's proofs beside the attacker's own.
 */
async function attacksOn(call: Call, attacker: Attacker): Promise<Call[]> {
  const t = await now();
  const self = attacker.wallet.account.address;
  const mSession = devSessionId(attacker.worldId4, attacker.seed);
  const mSeed = devSessionSeed(attacker.worldId4, attacker.seed);
  const mHuman4 = devWorldId4Nullifier(attacker.worldId4, RP_ID, ACTION4);
  const otherSeed = devSessionSeed(attacker.worldId4, attacker.seed + 1000n);
  const attacks: Call[] = [{ ...call }];
  if (call.functionName === "enrolInWorldId4Session") {
    const [receiver, seed, s, u] = call.args as EnrolArgs;
    const proof3 = proofForSession(attacker.worldId3, receiver, s.sessionId);
    attacks.push(
      enrolCall(self, u, s, seed),
      enrolCall(receiver, u, s, otherSeed),
      // Their own enrolment naming the victim's session (they may sign any signal), with the victim's session proof.
      enrolCall(receiver, uniqueness(attacker.worldId4, receiver, s.sessionId, t), s, seed),
      // The victim's enrolment with a session of their own that names the victim's human.
      enrolCall(receiver, u, completion(mSession, receiver, mSeed, 0n, u.nullifier, t), mSeed),
      enrolCall(self, u, completion(mSession, self, mSeed, 0n, u.nullifier, t), mSeed),
      // Their own 3.0 history moved into the victim's session with the victim's enrolment.
      moveCall(receiver, proof3.root, proof3.nullifierHash, proof3.proof, u, seed, s),
    );
  } else if (call.functionName === "moveToWorldId4Session") {
    const [receiver, root, nullifierHash, seed, u, proof, s] = call.args as MoveArgs;
    const own3 = proofForSession(attacker.worldId3, receiver, s.sessionId);
    attacks.push(
      moveCall(self, root, nullifierHash, proof, u, seed, s),
      moveCall(receiver, root, nullifierHash, proof, u, otherSeed, s),
      // Their 3.0 history into the victim's session; their enrolment beside the victim's 3.0 proof.
      moveCall(receiver, own3.root, own3.nullifierHash, own3.proof, u, seed, s),
      moveCall(receiver, root, nullifierHash, proof, uniqueness(attacker.worldId4, receiver, s.sessionId, t, { genesisMin: 0n }), seed, s),
      // The victim's 3.0 and 4.0 humans into a session of theirs (which names them both).
      moveCall(receiver, root, nullifierHash, proof, u, mSeed, completion(mSession, receiver, mSeed, nullifierHash, u.nullifier, t, { genesisMin: 0n })),
      // The victim's 3.0 history into their own enrolment and session.
      moveCall(receiver, root, nullifierHash, proof, uniqueness(attacker.worldId4, receiver, mSession, t, { genesisMin: 0n }), mSeed, completion(mSession, receiver, mSeed, nullifierHash, mHuman4, t, { genesisMin: 0n })),
      // The victim's 4.0 proofs as a plain enrolment, without the 3.0 history (the session proof names it).
      enrolCall(receiver, u, s, seed),
    );
  } else if (call.functionName === "claimWithSession") {
    const [, s] = call.args as readonly [Address, SessionProof];
    attacks.push({ functionName: call.functionName, args: [self, s] });
  } else if (call.functionName === "mint") {
    const [root, nullifierHash, proof] = call.args as readonly [bigint, bigint, readonly bigint[], Address];
    attacks.push({ functionName: call.functionName, args: [root, nullifierHash, proof, self] });
  }
  return attacks;
}

/** The attacker front-runs every pending call with `choose` of its attacks (all by default); then the block is mined. */
async function frontRunAndMine(deployment: Deployment, attacker: Attacker, choose: (attacks: Call[]) => Call[] = (attacks) => attacks) {
  for (const pending of await pendingCalls(deployment)) {
    if (pending.from === getAddress(attacker.wallet.account.address)) continue;
    for (const attack of choose(await attacksOn(pending.call, attacker))) await send(deployment.oro, attacker.wallet, attack, ATTACKER_FEES);
  }
  await mine();
}

async function adversaryFixture(version: (typeof VERIFIER_VERSIONS)[number]) {
  // Deployments wait for their receipts: the fixture runs with automining on, the tests with it off.
  await hre.network.provider.send("evm_setAutomine", [true]);
  const deployment = await FIXTURES[version]();
  const wallets = deployment.wallets;
  const attacker: Attacker = { wallet: at(wallets, 9), worldId3: "mallory-3", worldId4: "mallory-4", seed: 1n };
  // The attacker's 3.0 human has a history to move; so do the honest 3.0 humans.
  for (const name of ["mallory-3", "grace", "henry"]) await mintTo(deployment.oro, at(wallets, 9), name, at(wallets, 9).account.address);
  await time.increase(WAIT_BETWEEN_MINTS);
  await hre.network.provider.send("evm_setAutomine", [false]);
  return { ...deployment, attacker };
}
const adversaryV1 = () => adversaryFixture("V1");
const adversaryV2 = () => adversaryFixture("V2");

for (const version of VERIFIER_VERSIONS) describe(`World ID 4.0 against an attacker who sees every pending transaction (verifier ${version})`, function () {
  // A hang guard, not a budget: under coverage instrumentation on a loaded machine these take minutes, and a test that
  // mocha abandoned would go on sending transactions into the next test's chain.
  this.timeout(900_000);
  const fixture = version === "V1" ? adversaryV1 : adversaryV2;
  beforeEach(async function () {
    await hre.network.provider.send("evm_setAutomine", [false]);
  });
  afterEach(async function () {
    await hre.network.provider.send("evm_setAutomine", [true]);
  });

  /**
   * Sends the victim's call, lets the attacker send the `index`th attack derivable from it ahead of it (one at a time:
   * a copy that lands first would otherwise hide what the others do), then retries as the victim's app does.
   * Returns the number of attacks there are.
   */
  async function attackThenRetry(deployment: Deployment & { attacker: Attacker }, victim: Human, first: Call, retry: () => Promise<Call>, index: number) {
    await send(deployment.oro, victim.wallet, first, VICTIM_FEES);
    let count = 0;
    await frontRunAndMine(deployment, deployment.attacker, (attacks) => {
      count = attacks.length;
      return attacks.slice(index, index + 1);
    });
    await send(deployment.oro, victim.wallet, await retry(), VICTIM_FEES);
    await mine();
    return count;
  }

  it("enrolment: no copy, redirection or recombination ahead of it changes who is enrolled, where, or with what", async function () {
    for (let index = 0, count = 1; index < count; index++) {
      const deployment = await loadFixture(fixture);
      const erin: Human = { name: "erin", wallet: at(deployment.wallets, 1), worldId3: false, sessions: [1n] };
      const first = await honestEnrolment(erin);
      const [, , , kept] = first.args as EnrolArgs;
      count = await attackThenRetry(deployment, erin, first, () => honestEnrolment(erin, kept), index);
      await expectNoHonestHumanSplit(deployment.oro, [erin]);
      expect((await enrolments(deployment.oro)).some((e) => e.human === human4(erin)), `erin is enrolled after attack ${index}`).to.equal(true);
      await expectOneClaimPerWait(deployment);
      // Erin has exactly her first claim; the attacker received none of it.
      const amount = await deployment.oro.read.amountPerMint();
      expect(await deployment.oro.read.balanceOf([erin.wallet.account.address]), `attack ${index}`).to.equal(amount);
      expect(await deployment.oro.read.balanceOf([deployment.attacker.wallet.account.address]), `attack ${index}`).to.equal(3n * amount);
    }
  });

  it("move: the victim's 3.0 history goes to the victim's session only; the victim's 3.0 path closes; no one else's does", async function () {
    for (let index = 0, count = 1; index < count; index++) {
      const deployment = await loadFixture(fixture);
      const grace: Human = { name: "grace", wallet: at(deployment.wallets, 2), worldId3: true, sessions: [1n] };
      const first = await honestEnrolment(grace);
      const kept = (first.args as MoveArgs)[4];
      count = await attackThenRetry(deployment, grace, first, () => honestEnrolment(grace, kept), index);
      await expectNoHonestHumanSplit(deployment.oro, [grace]);
      const [, , moved] = await deployment.oro.read.nullifierHashMintData([human3(grace)]);
      expect(moved, `grace moved after attack ${index}`).to.equal(true);
      const [, , attackerMoved] = await deployment.oro.read.nullifierHashMintData([devNullifierHash("mallory-3")]);
      expect(attackerMoved, `the attacker's own 3.0 human did not move into grace's session (attack ${index})`).to.equal(false);
      await expectOneClaimPerWait(deployment);
    }
  });

  it("claim and 3.0 mint: a copied or redirected pending claim mints nothing more and nothing elsewhere", async function () {
    const deployment = await loadFixture(fixture);
    const { oro } = deployment;
    const erin: Human = { name: "erin", wallet: at(deployment.wallets, 1), worldId3: false, sessions: [1n] };
    await send(oro, erin.wallet, await honestEnrolment(erin), VICTIM_FEES);
    await mine();
    await time.increase(WAIT_BETWEEN_MINTS);
    const receiver = erin.wallet.account.address;
    const sessionId = devSessionId("erin", 1n);
    await send(oro, erin.wallet, { functionName: "claimWithSession", args: [receiver, session(sessionId, receiver, await now())] }, VICTIM_FEES);
    const henry = at(deployment.wallets, 3);
    const proof = proofFor("henry", henry.account.address);
    await send(oro, henry, { functionName: "mint", args: [proof.root, proof.nullifierHash, proof.proof, henry.account.address] }, VICTIM_FEES);
    await frontRunAndMine(deployment, deployment.attacker);
    const amount = await oro.read.amountPerMint();
    expect(await oro.read.balanceOf([receiver])).to.equal(2n * amount);
    expect(await oro.read.balanceOf([henry.account.address])).to.equal(amount);
    await expectOneClaimPerWait(deployment);
  });

  it("property: several humans and the attacker, any order, any subset of attacks: every human ends as they asked, once per wait", async function () {

    // Each step: some honest humans act (enrol, move, claim, 3.0 mint), the attacker front-runs a chosen subset of
    // everything derivable from their pending calls, the block is mined, and each honest app retries what failed.
    const step = fc.record({
      actors: fc.subarray([0, 1, 2, 3], { minLength: 1 }),
      attackMask: fc.integer({ min: 0, max: 0xff }),
      advance: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 5 }), async (steps) => {
        const deployment = await loadFixture(fixture);
        await hre.network.provider.send("evm_setAutomine", [false]);
        const { oro, wallets } = deployment;
        const humans: Human[] = [
          { name: "erin", wallet: at(wallets, 1), worldId3: false, sessions: [1n] },
          { name: "frank", wallet: at(wallets, 2), worldId3: false, sessions: [1n] },
          { name: "grace", wallet: at(wallets, 3), worldId3: true, sessions: [1n] },
          { name: "henry", wallet: at(wallets, 4), worldId3: true, sessions: [1n] },
        ];
        const kept = new Map<string, UniquenessProof>();
        const enrolledOf = async (human: Human) => (await enrolments(oro)).some((e) => e.human === human4(human));
        const intent = async (human: Human): Promise<Call> => {
          if (!(await enrolledOf(human))) {
            // A 3.0 human who has not moved yet sometimes mints with 3.0 instead (before moving).
            return honestEnrolment(human, kept.get(human.name));
          }
          const receiver = human.wallet.account.address;
          return { functionName: "claimWithSession", args: [receiver, session(devSessionId(human.name, at(human.sessions, 0)), receiver, await now())] };
        };
        for (const { actors, attackMask, advance } of steps) {
          for (const index of actors) {
            const human = at(humans, index);
            const call = await intent(human);
            if (call.functionName !== "claimWithSession") {
              const u = call.functionName === "enrolInWorldId4Session" ? (call.args as EnrolArgs)[3] : (call.args as MoveArgs)[4];
              if (!kept.has(human.name)) kept.set(human.name, u);
            }
            await send(oro, human.wallet, call, VICTIM_FEES);
          }
          await frontRunAndMine(deployment, deployment.attacker, (attacks) => attacks.filter((_, i) => (attackMask >> (i % 8)) & 1));
          // Each honest app sees whether its enrolment or move is on chain, and sends again until it is.
          for (const index of actors) {
            const human = at(humans, index);
            if (await enrolledOf(human)) continue;
            await send(oro, human.wallet, await honestEnrolment(human, kept.get(human.name)), VICTIM_FEES);
            await mine();
            expect(await enrolledOf(human), `${human.name} could not finish after the attack`).to.equal(true);
          }
          await expectNoHonestHumanSplit(oro, humans);
          if (advance) await time.increase(WAIT_BETWEEN_MINTS);
        }
        // Every mint of the run, read once: no human (honest or the attacker's) minted twice within a wait.
        await expectOneClaimPerWait(deployment);
        await hre.network.provider.send("evm_setAutomine", [true]);
      }),
      { numRuns: 6 },
    );
  });
});
