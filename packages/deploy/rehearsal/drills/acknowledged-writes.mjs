// Writes through the API for drill 3, recording each one the API acknowledged:
// `node acknowledged-writes.mjs <api origin> <siwe domain> <chain rpc url> <seconds> <concurrency> <out file>`.
// Each worker, again and again: a new wallet signs in (a user and its session written) and records its claim
// reminder (a reminder written). Every write answered 200 is one line of JSON in <out file> as it is acknowledged
// ({ address, write }); refusals and errors are only counted. The summary is printed at the end.
import { appendFileSync } from "node:fs";
import { createSiweMessage } from "viem/siwe";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

const [origin, domain, rpcUrl, secondsArg = "60", concurrencyArg = "4", out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node acknowledged-writes.mjs <api origin> <siwe domain> <chain rpc url> <seconds> <concurrency> <out file>");
  process.exit(2);
}
const endsAt = Date.now() + Number(secondsArg) * 1000;
const outcomes = {};
const count = (what) => (outcomes[what] = (outcomes[what] ?? 0) + 1);

async function rpc(method, params = []) {
  const answer = await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await answer.json()).result;
}
const chainId = Number(await rpc("eth_chainId"));

async function call(path, init = {}) {
  const answer = await fetch(`${origin}${path}`, { ...init, signal: AbortSignal.timeout(10_000), headers: { "content-type": "application/json", ...init.headers } });
  const body = await answer.json().catch(() => null);
  return { status: answer.status, body };
}

async function worker() {
  while (Date.now() < endsAt) {
    try {
      const account = privateKeyToAccount(generatePrivateKey());
      const nonce = await call("/api/auth/nonce");
      if (nonce.status !== 200) { count(`nonce ${nonce.status}`); await new Promise((r) => setTimeout(r, 200)); continue; }
      // The API dates sign-in by the chain's clock, which the journeys moved ahead.
      const chainNow = Number((await rpc("eth_getBlockByNumber", ["latest", false])).timestamp) * 1000;
      const message = createSiweMessage({ domain, address: account.address, statement: nonce.body.statement, uri: `http://${domain}/`, version: "1", chainId, nonce: nonce.body.nonce, issuedAt: new Date(Math.max(Date.now(), chainNow)) });
      const signIn = await call("/api/auth/siwe", { method: "POST", body: JSON.stringify({ message, signature: await account.signMessage({ message }), address: account.address }) });
      if (signIn.status !== 200) { count(`sign-in ${signIn.status}`); continue; }
      appendFileSync(out, `${JSON.stringify({ address: account.address.toLowerCase(), write: "user" })}\n`);
      count("sign-in acknowledged");
      const reminder = await call(`/api/notifications/oro_claim?userAddress=${account.address}&locale=en`, { method: "POST", headers: { authorization: `Bearer ${signIn.body.token}` }, body: "{}" });
      if (reminder.status !== 200) { count(`reminder ${reminder.status}`); continue; }
      appendFileSync(out, `${JSON.stringify({ address: account.address.toLowerCase(), write: "reminder" })}\n`);
      count("reminder acknowledged");
    } catch (error) {
      count(`error ${error?.cause?.code ?? error?.name ?? "unknown"}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

await Promise.all(Array.from({ length: Number(concurrencyArg) }, worker));
console.log(JSON.stringify(outcomes));
