/*
 * IDKit's World ID 4.0 session ids, in a module of their own: the claim screen reads a session's mint record with
 * them on first load, without the proof helpers of world-id.ts.
 */

const IDKIT_SESSION_ID = /^session_[0-9a-f]{64}01[0-9a-f]{62}$/;

/** Whether a string is an IDKit session id: `session_` + the commitment + the OPRF seed (World's prefix byte 0x01). */
export function isIdkitSessionId(value: string): value is `session_${string}` {
  return IDKIT_SESSION_ID.test(value);
}

/** The session id the contract takes: the commitment, the first 32 bytes of IDKit's `session_<128 hex>`. */
export function sessionIdOf(idkitSessionId: string): bigint {
  if (!isIdkitSessionId(idkitSessionId)) throw new Error("a session id is session_, the commitment and the OPRF seed (64 hex digits each, the seed's first byte 01)");
  return BigInt(`0x${idkitSessionId.slice(8, 72)}`);
}

/** The OPRF seed half of an IDKit session id, which enrolment records on chain beside the commitment. */
export function sessionSeedOf(idkitSessionId: string): bigint {
  sessionIdOf(idkitSessionId);
  return BigInt(`0x${idkitSessionId.slice(72)}`);
}

/** IDKit's session id from the two numbers the contract's WorldId4Enrolled event records. */
export function idkitSessionIdOf(sessionId: bigint, sessionSeed: bigint): `session_${string}` {
  const id = `session_${sessionId.toString(16).padStart(64, "0")}${sessionSeed.toString(16).padStart(64, "0")}`;
  if (!isIdkitSessionId(id)) throw new Error("not a session id: the seed must start with World's session prefix byte 01");
  return id;
}
