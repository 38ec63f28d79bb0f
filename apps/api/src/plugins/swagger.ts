import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import fp from "fastify-plugin";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";

/** The OpenAPI 3 document, built from the route schemas; browsable at /api/docs, raw at /api/docs/json. */
export default fp<{ cookieName: string }>(
  async (fastify, { cookieName }) => {
    await fastify.register(swagger, {
      openapi: {
        openapi: "3.0.3",
        info: {
          title: "ORO API",
          description: "Sign-in with the wallet and the referral programme of the ORO mini app.",
          version: "1.0.0",
        },
        components: {
          securitySchemes: {
            bearer: { type: "http", scheme: "bearer", description: "The token returned by POST /api/auth/siwe" },
            cookie: { type: "apiKey", in: "cookie", name: cookieName, description: "The httpOnly session cookie" },
          },
        },
        tags: [
          { name: "health", description: "Liveness and readiness" },
          { name: "auth", description: "Sign in with the wallet (SIWE)" },
          { name: "referrals", description: "Referral codes, invites and their rewards" },
        ],
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
    await fastify.register(swaggerUi, { routePrefix: "/api/docs", staticCSP: true });
  },
  { name: "swagger" },
);
