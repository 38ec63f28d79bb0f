import { SIGN_IN_STATEMENT } from "@oro/clients";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import type { User } from "../../generated/prisma/client.js";
import {
  currentUserResponseSchema,
  nonceResponseSchema,
  sessionResponseSchema,
  signOutResponseSchema,
  siweBodySchema,
} from "../../schemas/auth.js";
import { errorResponses, sessionSecurity } from "../../schemas/common.js";

export function presentUser(user: User) {
  return { userId: user.id, address: user.address, username: user.username };
}

const authRoutes: FastifyPluginCallbackZod = (fastify, _options, done) => {
  const { auth } = fastify.services;

  fastify.get(
    "/nonce",
    {
      schema: {
        tags: ["auth"],
        summary: "A single-use sign-in nonce (expires in minutes)",
        response: { 200: nonceResponseSchema, ...errorResponses(429) },
      },
    },
    async () => {
      const { nonce, expiresAt } = await auth.issueNonce("sign_in");
      return { nonce, expiresAt: expiresAt.toISOString(), statement: SIGN_IN_STATEMENT };
    },
  );

  fastify.post(
    "/siwe",
    {
      schema: {
        tags: ["auth"],
        summary: "Sign in with the MiniKit walletAuth result; returns a session (cookie and bearer token)",
        body: siweBodySchema,
        response: { 200: sessionResponseSchema, ...errorResponses(400, 401, 429, 503) },
      },
    },
    async (request, reply) => {
      const grant = await auth.signIn(request.body);
      reply.setSessionCookie(grant.token, grant.expiresAt);
      return { token: grant.token, expiresAt: grant.expiresAt.toISOString(), user: presentUser(grant.user) };
    },
  );

  fastify.get(
    "/session",
    {
      schema: {
        tags: ["auth"],
        summary: "The signed-in user",
        security: sessionSecurity,
        response: { 200: currentUserResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ user: presentUser(await request.requireUser()) }),
  );

  fastify.post(
    "/logout",
    {
      schema: {
        tags: ["auth"],
        summary: "Ends the session",
        response: { 200: signOutResponseSchema, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const token = request.sessionToken();
      if (token) await auth.signOut(token);
      reply.clearSessionCookie();
      return { signedOut: true as const };
    },
  );
  done();
};

export default authRoutes;
