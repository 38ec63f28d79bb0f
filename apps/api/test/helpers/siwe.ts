import { SIGN_IN_STATEMENT } from "@oro/clients";
import type { FastifyInstance } from "fastify";
import type { Address, LocalAccount } from "viem";

/** A sign-in message in the ERC-4361 layout MiniKit's walletAuth produces. */
export function siweMessage(input: {
  address: Address;
  nonce: string;
  statement?: string;
  domain?: string;
  uri?: string;
  chainId?: number;
  issuedAt?: Date;
  expirationTime?: Date;
  version?: string;
}): string {
  const domain = input.domain ?? "oro.example";
  const lines = [
    `${domain} wants you to sign in with your Ethereum account:`,
    input.address,
    "",
    input.statement ?? SIGN_IN_STATEMENT,
    "",
    `URI: ${input.uri ?? `https://${domain}/`}`,
    `Version: ${input.version ?? "1"}`,
    `Chain ID: ${input.chainId ?? 480}`,
    `Nonce: ${input.nonce}`,
    `Issued At: ${(input.issuedAt ?? new Date()).toISOString()}`,
  ];
  if (input.expirationTime) lines.push(`Expiration Time: ${input.expirationTime.toISOString()}`);
  return `${lines.join("\n")}\n`;
}

export async function fetchNonce(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: "GET", url: "/api/auth/nonce" });
  if (response.statusCode !== 200) throw new Error(`nonce: ${response.statusCode} ${response.body}`);
  return (response.json<{ nonce: string }>()).nonce;
}

/** Signs in `account` through the real endpoints and returns the bearer token. */
export async function signIn(app: FastifyInstance, account: LocalAccount, username?: string): Promise<string> {
  const nonce = await fetchNonce(app);
  const message = siweMessage({ address: account.address, nonce });
  const signature = await account.signMessage({ message });
  const response = await app.inject({
    method: "POST",
    url: "/api/auth/siwe",
    payload: { message, signature, address: account.address, ...(username ? { username } : {}) },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in: ${response.statusCode} ${response.body}`);
  return (response.json<{ token: string }>()).token;
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}
