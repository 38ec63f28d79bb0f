import { describe, expect, it } from "vitest";
import { ApiNotWiredError, ApiRequestError, createOroApi } from "../src/lib/api";
import { USER } from "./fakes";

/** The API module on the generated client, against a recorded fetch. */
function withFetch(answer: (request: Request) => Response) {
  const requests: Request[] = [];
  const api = createOroApi({
    baseUrl: "http://127.0.0.1:3999",
    token: () => "session-token",
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      requests.push(request);
      return Promise.resolve(answer(request));
    },
  });
  return { api, requests };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("API module", () => {
  it("gets the sign-in nonce from GET /api/auth/nonce", async () => {
    const { api, requests } = withFetch(() => json({ nonce: "abcdEFGH1234", expiresAt: "2030-01-01T00:00:00.000Z", statement: "Claim ORO daily on the chain." }));
    expect(await api.getSignInNonce()).toEqual({ nonce: "abcdEFGH1234", statement: "Claim ORO daily on the chain." });
    expect(requests[0]?.method).toBe("GET");
    expect(new URL(requests[0]?.url ?? "").pathname).toBe("/api/auth/nonce");
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer session-token");
  });

  it("posts the walletAuth result to /api/auth/siwe and returns the session", async () => {
    const session = { token: "t", expiresAt: "2030-01-01T00:00:00.000Z", user: { userId: "u", address: USER, username: "ana" } };
    const { api, requests } = withFetch(() => json(session));
    expect(await api.signIn({ message: "m", signature: "0x12", address: USER, username: "ana" })).toEqual(session);
    expect(requests[0]?.method).toBe("POST");
    expect(new URL(requests[0]?.url ?? "").pathname).toBe("/api/auth/siwe");
    expect(await requests[0]?.json()).toEqual({ message: "m", signature: "0x12", address: USER, username: "ana" });
  });

  it("turns an error answer into an ApiRequestError with the API's code", async () => {
    const { api } = withFetch(() => json({ error: "NONCE_REUSED", message: "This sign-in nonce was already used" }, 401));
    const error = await api.signIn({ message: "m", signature: "0x12", address: USER }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 401, code: "NONCE_REUSED" });
  });

  it("fails clearly for endpoints whose client is not generated yet", async () => {
    const { api, requests } = withFetch(() => json({}));
    await expect(api.getCurrentStreak(USER, { bypassCache: false })).rejects.toBeInstanceOf(ApiNotWiredError);
    expect(requests).toHaveLength(0);
  });
});
