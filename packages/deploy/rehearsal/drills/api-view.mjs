// What the API shows of the simulator's people, for drill 6 to compare two APIs (the stack's, and one started on
// a restored backup): `node api-view.mjs <api origin> <siwe domain> <chain rpc url> <address>...`. Signs in as each
// simulator wallet whose address is given (their keys are the simulator's, derived from the wallet id), then
// prints one JSON object: per wallet, the session's user and the referral earnings (referrals, vouchers, payouts),
// read past the API's caches.
import { keccak256, stringToHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";

const [origin, domain, rpcUrl, ...addresses] = process.argv.slice(2);
// The simulator's people and wallets (apps/simulator/src/humans.ts): the ones the rehearsal's journeys use.
const WALLETS = ["alice-main", "bob-main", "bob-second", "carol-main", "dave-main", "erin-main"];
const wanted = new Set(addresses.map((address) => address.toLowerCase()));

async function call(path, init = {}) {
  const answer = await fetch(`${origin}${path}`, { ...init, headers: { "content-type": "application/json", ...init.headers } });
  const body = await answer.json().catch(() => null);
  if (!answer.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${answer.status} ${JSON.stringify(body)}`);
  return body;
}

/** The chain's id and its clock: the journeys moved the development chain's time ahead, and the API dates sign-in by it. */
async function rpc(method, params = []) {
  const answer = await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await answer.json()).result;
}
const chainId = Number(await rpc("eth_chainId"));
const chainNow = Number((await rpc("eth_getBlockByNumber", ["latest", false])).timestamp) * 1000;

const view = {};
for (const wallet of WALLETS) {
  const account = privateKeyToAccount(keccak256(stringToHex(`oro-simulator-wallet:${wallet}`)));
  if (!wanted.has(account.address.toLowerCase())) continue;
  const { nonce, statement } = await call("/api/auth/nonce");
  const message = createSiweMessage({ domain, address: account.address, statement, uri: `http://${domain}/`, version: "1", chainId, nonce, issuedAt: new Date(Math.max(Date.now(), chainNow)) });
  const { token } = await call("/api/auth/siwe", { method: "POST", body: JSON.stringify({ message, signature: await account.signMessage({ message }), address: account.address }) });
  const auth = { headers: { authorization: `Bearer ${token}` } };
  const { user } = await call("/api/auth/session", auth);
  const earned = await call(`/api/referrals/oro-earned?userAddress=${account.address}&forceBustCache=true`, auth);
  // A referral's updatedAt is the workers' stamp of their last look at it (a pending one is looked at again and
  // again): it may move between the dump and this read, and is not what the backup has to keep.
  view[wallet] = { user, earned: JSON.parse(JSON.stringify(earned, (key, value) => (key === "updatedAt" ? undefined : value))) };
}
console.log(JSON.stringify(view));
