import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  ENROLMENT_ACTION,
  buildDevProof,
  buildDevWorldId4Proof,
  moveSignalOf,
  devWorldId4Nullifier,
  enrolmentSignalOf,
  hashToField,
  rpIdOf,
  sessionIdOf,
  sessionProofFromIdkit,
  signalHashOf,
  uniquenessProofFromIdkit,
  worldId4ActionOf,
  type IdkitSessionItem,
  type IdkitUniquenessItem,
} from "@oro/clients";
import { decodeAbiParameters, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalChain } from "../src/chain.js";
import { answerCommand, supportedCommandsOf, type BridgeMessage, type CommandContext, type NotificationPermission } from "../src/commands.js";
import { createHumans, type SimulatedHuman } from "../src/humans.js";
import { REPLAY_GRACE_SECONDS } from "../src/world-id-4.js";

/**
 * The simulator's World ID 4.0 answers, read back by World's own IDKit (its native transport and its WASM
 * `proofResponseToIDKitResult`), as the mini app would inside World App. The page's window is played by a small
 * stand-in: World App's `supported_commands`, the `webkit` bridge that receives IDKit's postMessage, and the
 * `message` event IDKit listens on for the answer.
 */

const RP_ID = "rp_0000000000007a69";
const CUTOFF = 1_780_272_000;
const KEY = `0x${"11".repeat(32)}` as const;
const RECEIVER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

type Listener = (event: { data: unknown }) => void;
const sent: BridgeMessage[] = [];
const listeners = new Set<Listener>();
let chainSeconds = 1_800_000_000;
const realFetch = globalThis.fetch;

beforeAll(() => {
  const stand = globalThis as unknown as Record<string, unknown>;
  stand.window = globalThis;
  stand.WorldApp = { supported_commands: [{ name: "verify", supported_versions: [1, 2] }] };
  stand.webkit = { messageHandlers: { minikit: { postMessage: (message: BridgeMessage) => sent.push(message) } } };
  stand.addEventListener = (type: string, listener: Listener) => type === "message" && listeners.add(listener);
  stand.removeEventListener = (_type: string, listener: Listener) => listeners.delete(listener);
  // IDKit fetches its WASM next to its module (a file: URL under Node).
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof URL ? input : new URL(typeof input === "string" ? input : input.url);
    if (url.protocol === "file:") return new Response(readFileSync(fileURLToPath(url)), { headers: { "content-type": "application/wasm" } });
    return realFetch(input, init);
  });
});

afterAll(() => {
  globalThis.fetch = realFetch;
});

const chain = { publicClient: { getBlock: () => Promise.resolve({ timestamp: BigInt(chainSeconds) }) } } as unknown as LocalChain;

function contextFor(human: SimulatedHuman): CommandContext {
  const wallet = human.wallets[0];
  if (!wallet) throw new Error("no wallet");
  return {
    human,
    wallet,
    switches: { verificationFails: false, nextTransaction: "send", notificationAnswer: "allow", worldId3Proofs: true },
    chain,
    world: { appId: "app_staging_oro_local", action: "claim-tokens-action", rpSigner: privateKeyToAccount(KEY).address },
    permissions: new Map<string, NotificationPermission>(),
    shares: [],
    approved: true,
  };
}

async function rpContext(action?: string, key: string = KEY) {
  const { signRequest } = await import("@worldcoin/idkit-core/signing");
  const signed = signRequest(action ? { signingKeyHex: key, action, ttl: 300 } : { signingKeyHex: key, ttl: 300 });
  return { rp_id: RP_ID, nonce: signed.nonce, created_at: signed.createdAt, expires_at: signed.expiresAt, signature: signed.sig };
}

/** Sends IDKit's request through the simulator as World App, and returns what IDKit makes of the answer. */
async function throughWorldApp(human: SimulatedHuman, start: () => Promise<{ pollUntilCompletion(): Promise<unknown> }>) {
  const before = sent.length;
  const request = await start();
  const message = sent[before];
  if (!message) throw new Error("IDKit posted nothing");
  const outcome = await answerCommand(message, contextFor(human));
  for (const listener of listeners) listener({ data: { type: outcome.answer?.event, payload: outcome.answer?.payload } });
  const completion = (await request.pollUntilCompletion()) as { success: boolean; result?: Record<string, unknown> & { responses: Record<string, unknown>[]; nonce: string }; error?: string };
  return { message, outcome, completion };
}

const humans = createHumans();
const erin = humans.find((human) => human.id === "erin");
const frank = humans.find((human) => human.id === "frank");
const alice = humans.find((human) => human.id === "alice");
const lena = humans.find((human) => human.id === "lena");
if (!erin || !alice || !frank || !lena) throw new Error("the simulator lost Erin, Alice, Frank or Lena");

describe("World ID 4.0 through World's own IDKit: sessions, uniqueness and the replay guard", () => {
  it("createSession: a new session (IDKit's session_<commitment><seed>) with a session proof the local verifier accepts", async () => {
    const { IDKit, CredentialRequest } = await import("@worldcoin/idkit-core");
    const { completion, message } = await throughWorldApp(erin, async () =>
      IDKit.createSession({ app_id: "app_staging_oro_local", rp_context: await rpContext() }).constraints(
        CredentialRequest("proof_of_human", { signal: RECEIVER, genesis_issued_at_min: CUTOFF, expires_at_min: chainSeconds }),
      ),
    );
    expect(message.version).toBe(2);
    expect(completion.success).toBe(true);
    const result = completion.result;
    if (!result) throw new Error("no result");
    expect(result.protocol_version).toBe("4.0");
    const idkitSessionId = result.session_id as string;
    expect(idkitSessionId).toMatch(/^session_[0-9a-f]{64}01[0-9a-f]{62}$/);
    const proof = sessionProofFromIdkit(idkitSessionId, result.responses[0] as unknown as IdkitSessionItem, result.nonce);
    expect(proof.sessionNullifier[1] >> 248n).toBe(2n);
    // The proof is the one MockWorldIdVerifier recomputes from the contract's inputs.
    expect(proof.proof).toEqual(
      buildDevWorldId4Proof({
        nullifier: proof.sessionNullifier[0], action: proof.sessionNullifier[1], rpId: rpIdOf(RP_ID), nonce: proof.nonce,
        signalHash: signalHashOf(RECEIVER), expiresAtMin: BigInt(chainSeconds), credentialGenesisIssuedAtMin: BigInt(CUTOFF), sessionId: sessionIdOf(idkitSessionId),
      }),
    );
  });

  it("a uniqueness proof for the enrolment action, its signal receiver ‖ session; then proveSession with a fresh nullifier", async () => {
    const { IDKit, CredentialRequest } = await import("@worldcoin/idkit-core");
    const idkitSessionId = [...erin.sessions.values()][0];
    if (!idkitSessionId) throw new Error("no session from the previous test");
    const signal = enrolmentSignalOf(RECEIVER, sessionIdOf(idkitSessionId));
    const { completion } = await throughWorldApp(erin, async () =>
      IDKit.request({ app_id: "app_staging_oro_local", action: ENROLMENT_ACTION, rp_context: await rpContext(ENROLMENT_ACTION), allow_legacy_proofs: false }).constraints(
        CredentialRequest("proof_of_human", { signal, genesis_issued_at_min: CUTOFF, expires_at_min: chainSeconds }),
      ),
    );
    expect(completion.success).toBe(true);
    const result = completion.result;
    if (!result) throw new Error("no result");
    expect(result.protocol_version).toBe("4.0");
    const uniqueness = uniquenessProofFromIdkit(result.responses[0] as unknown as IdkitUniquenessItem, result.nonce, BigInt(CUTOFF));
    const action = worldId4ActionOf(ENROLMENT_ACTION);
    expect(uniqueness.nullifier).toBe(devWorldId4Nullifier("erin", rpIdOf(RP_ID), action));
    expect(uniqueness.proof).toEqual(
      buildDevWorldId4Proof({ nullifier: uniqueness.nullifier, action, rpId: rpIdOf(RP_ID), nonce: uniqueness.nonce, signalHash: hashToField(signal), expiresAtMin: BigInt(chainSeconds), credentialGenesisIssuedAtMin: BigInt(CUTOFF) }),
    );

    const prove = () =>
      throughWorldApp(erin, async () =>
        IDKit.proveSession(idkitSessionId as `session_${string}`, { app_id: "app_staging_oro_local", rp_context: await rpContext() }).constraints(
          CredentialRequest("proof_of_human", { signal: RECEIVER, expires_at_min: chainSeconds }),
        ),
      );
    const first = await prove();
    const second = await prove();
    expect(first.completion.success && second.completion.success).toBe(true);
    const nullifierOf = (c: typeof first.completion) => (c.result?.responses[0] as { session_nullifier: string[] }).session_nullifier[0];
    expect(nullifierOf(first.completion)).not.toBe(nullifierOf(second.completion));
  });

  it("World App's replay guard: the same uniqueness nullifier again within 10 minutes, then nullifier_replayed", async () => {
    const { IDKit, CredentialRequest } = await import("@worldcoin/idkit-core");
    const ask = () =>
      throughWorldApp(erin, async () =>
        IDKit.request({ app_id: "app_staging_oro_local", action: ENROLMENT_ACTION, rp_context: await rpContext(ENROLMENT_ACTION), allow_legacy_proofs: false }).constraints(
          CredentialRequest("proof_of_human", { signal: RECEIVER, expires_at_min: chainSeconds }),
        ),
      );
    chainSeconds += REPLAY_GRACE_SECONDS - 60;
    expect((await ask()).completion.success).toBe(true);
    chainSeconds += 120;
    const late = await ask();
    expect(late.completion).toMatchObject({ success: false, error: "nullifier_replayed" });
  });
});

// The refusals use Erin's session from the tests above (a file's describes run in order).
describe("World ID 4.0 through World's own IDKit: refusals, expiry and World Apps without 4.0", () => {
  it("refuses what World App cannot prove: a genesis bound after the credential, another human's session; no 3.0 proof for a 4.0-only human", async () => {
    const { IDKit, CredentialRequest, orbLegacy } = await import("@worldcoin/idkit-core");
    const tooOld = await throughWorldApp(alice, async () =>
      IDKit.request({ app_id: "app_staging_oro_local", action: ENROLMENT_ACTION, rp_context: await rpContext(ENROLMENT_ACTION), allow_legacy_proofs: false }).constraints(
        CredentialRequest("proof_of_human", { signal: RECEIVER, genesis_issued_at_min: CUTOFF }),
      ),
    );
    expect(tooOld.completion).toMatchObject({ success: false, error: "credential_unavailable" });
    const erinsSession = [...erin.sessions.values()][0] as `session_${string}`;
    const notHers = await throughWorldApp(alice, async () =>
      IDKit.proveSession(erinsSession, { app_id: "app_staging_oro_local", rp_context: await rpContext() }).constraints(CredentialRequest("proof_of_human", { signal: RECEIVER })),
    );
    expect(notHers.completion).toMatchObject({ success: false, error: "credential_unavailable" });
    const legacy = await throughWorldApp(erin, async () =>
      IDKit.request({ app_id: "app_staging_oro_local", action: "claim-tokens-action", rp_context: await rpContext("claim-tokens-action"), allow_legacy_proofs: true }).preset(orbLegacy({ signal: RECEIVER })),
    );
    expect(legacy.completion).toMatchObject({ success: false, error: "world_id_3_not_available" });
    // Alice (verified before 4.0) still gets her 3.0 proof, read by IDKit as protocol 3.0.
    const aliceLegacy = await throughWorldApp(alice, async () =>
      IDKit.request({ app_id: "app_staging_oro_local", action: "claim-tokens-action", rp_context: await rpContext("claim-tokens-action"), allow_legacy_proofs: true }).preset(orbLegacy({ signal: RECEIVER })),
    );
    expect(aliceLegacy.completion.result?.protocol_version).toBe("3.0");
  });

  it("refuses a request World would: signed by another key, a session signed with an action, a uniqueness proof without its action, an expired one", async () => {
    const { IDKit, CredentialRequest } = await import("@worldcoin/idkit-core");
    const poh = CredentialRequest("proof_of_human", { signal: RECEIVER });
    const uniqueness = async (rp: Awaited<ReturnType<typeof rpContext>>) =>
      (await throughWorldApp(erin, async () => IDKit.request({ app_id: "app_staging_oro_local", action: ENROLMENT_ACTION, rp_context: rp, allow_legacy_proofs: false }).constraints(poh))).completion;
    const session = async (rp: Awaited<ReturnType<typeof rpContext>>) =>
      (await throughWorldApp(erin, async () => IDKit.createSession({ app_id: "app_staging_oro_local", rp_context: rp }).constraints(poh))).completion;
    expect(await uniqueness(await rpContext(ENROLMENT_ACTION, `0x${"22".repeat(32)}`))).toMatchObject({ success: false, error: "invalid_rp_signature" });
    expect(await session(await rpContext(ENROLMENT_ACTION))).toMatchObject({ success: false, error: "invalid_rp_signature" });
    expect(await uniqueness(await rpContext())).toMatchObject({ success: false, error: "invalid_rp_signature" });
    expect(await uniqueness(await rpContext("claim-tokens-action"))).toMatchObject({ success: false, error: "invalid_rp_signature" });
    const expired = { ...(await rpContext(ENROLMENT_ACTION)), created_at: 1_700_000_000, expires_at: 1_700_000_300 };
    expect(await uniqueness(expired)).toMatchObject({ success: false, error: "rp_signature_expired" });
  });

  it("a credential that expires before the request's expires_at_min cannot answer it, and discloses nothing (walletkit's check, strict)", async () => {
    const { IDKit, CredentialRequest } = await import("@worldcoin/idkit-core");
    const ask = (expiresAtMin: number) =>
      throughWorldApp(lena, async () =>
        IDKit.request({ app_id: "app_staging_oro_local", action: ENROLMENT_ACTION, rp_context: await rpContext(ENROLMENT_ACTION), allow_legacy_proofs: false }).constraints(
          CredentialRequest("proof_of_human", { signal: RECEIVER, genesis_issued_at_min: CUTOFF, expires_at_min: expiresAtMin }),
        ),
      );
    lena.credentialExpiresAt = chainSeconds + 10 * 86_400;
    expect((await ask(chainSeconds + 30 * 86_400)).completion).toMatchObject({ success: false, error: "credential_unavailable" });
    expect((await ask(lena.credentialExpiresAt)).completion).toMatchObject({ success: false, error: "credential_unavailable" });
    expect(lena.disclosed.size).toBe(0);
    // Past the replay guard's grace: a refusal disclosed no nullifier, so the request for today still answers.
    chainSeconds += REPLAY_GRACE_SECONDS + 60;
    const today = await ask(chainSeconds);
    expect(today.completion.success).toBe(true);
    expect(lena.disclosed.size).toBe(1);
    // A session proof needs the credential too: once it has expired, nothing is proved for Lena.
    const session = (await throughWorldApp(lena, async () => IDKit.createSession({ app_id: "app_staging_oro_local", rp_context: await rpContext() }).constraints(CredentialRequest("proof_of_human", { signal: RECEIVER }))))
      .completion;
    expect(session.success).toBe(true);
    const held = [...lena.sessions.values()][0] as `session_${string}`;
    chainSeconds = lena.credentialExpiresAt;
    const expired = await throughWorldApp(lena, async () =>
      IDKit.proveSession(held, { app_id: "app_staging_oro_local", rp_context: await rpContext() }).constraints(CredentialRequest("proof_of_human", { signal: RECEIVER, expires_at_min: chainSeconds - 3600 })),
    );
    expect(expired.completion).toMatchObject({ success: false, error: "credential_unavailable" });
  });

  it("a World App without World ID 4.0 announces verify v1 only and answers a 4.0 request world_id_4_not_available", async () => {
    const { IDKit, CredentialRequest } = await import("@worldcoin/idkit-core");
    expect(supportedCommandsOf("3.0-only").find((command) => command.name === "verify")?.supported_versions).toEqual([1]);
    expect(supportedCommandsOf("4.0-only").find((command) => command.name === "verify")?.supported_versions).toEqual([1, 2]);
    const refused = await throughWorldApp(frank, async () =>
      IDKit.createSession({ app_id: "app_staging_oro_local", rp_context: await rpContext() }).constraints(CredentialRequest("proof_of_human", { signal: RECEIVER })),
    );
    expect(refused.completion).toMatchObject({ success: false, error: "world_id_4_not_available" });
  });

  it("a 3.0 proof proves the signal the request carries: a move's signal is the new session, not the wallet", async () => {
    const { IDKit, orbLegacy } = await import("@worldcoin/idkit-core");
    const sessionId = 0x1234n;
    const moved = await throughWorldApp(alice, async () =>
      IDKit.request({ app_id: "app_staging_oro_local", action: "claim-tokens-action", rp_context: await rpContext("claim-tokens-action"), allow_legacy_proofs: true }).preset(orbLegacy({ signal: moveSignalOf(RECEIVER, sessionId) })),
    );
    const response = moved.completion.result?.responses[0] as { proof: Hex; merkle_root: Hex; nullifier: Hex };
    const [proof] = decodeAbiParameters([{ type: "uint256[8]" }], response.proof);
    const expected = buildDevProof({ receiver: RECEIVER, signalHash: hashToField(moveSignalOf(RECEIVER, sessionId)), nullifierHash: alice.nullifierHash, appId: "app_staging_oro_local", action: "claim-tokens-action" });
    expect(proof).toEqual(expected.proof);
  });
});
