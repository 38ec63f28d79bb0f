import { SIGN_IN_STATEMENT } from "@oro/clients";
import { useMutation } from "@tanstack/react-query";
import { getAddress, type Address } from "viem";
import { useServices } from "../../lib/services";
import { useStored, writeStored } from "../../lib/storage";

export interface SignedInUser {
  address: Address;
  username: string | null;
}

/** The signed-in wallet, or null; an expired session counts as signed out. */
export function useSession(): SignedInUser | null {
  const session = useStored("session");
  if (!session || Date.parse(session.expiresAt) <= Date.now()) return null;
  return { address: getAddress(session.address), username: session.username };
}

/** Sign in: the API's nonce, the wallet's SIWE signature (walletAuth), then the API's session. */
export function useSignIn() {
  const { api, wallet } = useServices();
  return useMutation({
    mutationKey: ["sign-in"],
    mutationFn: async () => {
      const { nonce, statement } = await api.getSignInNonce();
      const signed = await wallet.walletAuth({ nonce, statement: statement || SIGN_IN_STATEMENT });
      const username = await wallet.getUsername(signed.address);
      const session = await api.signIn({ ...signed, ...(username ? { username } : {}) });
      writeStored("session", {
        address: signed.address,
        username: session.user.username ?? username,
        token: session.token,
        expiresAt: session.expiresAt,
      });
      return session;
    },
  });
}
