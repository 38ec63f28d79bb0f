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
          description:
            "Sign-in with the wallet, the referral programme, streaks, claim reminders, user data, token prices, polls " +
            "and World ID requests of the ORO mini app.",
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
          { name: "streaks", description: "Claim streaks, read from the indexer through a cache" },
          { name: "notifications", description: "Claim reminders sent through World App" },
          { name: "user", description: "Country check, swap reward, post-claim email" },
          { name: "erc20", description: "Token prices" },
          { name: "polls", description: "Polls: one vote per verified human" },
          { name: "world-id", description: "Signed World ID (IDKit 4) requests" },
        ],
      },
      transform: jsonSchemaTransform,
      transformObject: (document) => optionalNullableBodies(jsonSchemaTransformObject(document)),
    });
    await fastify.register(swaggerUi, {
      routePrefix: "/api/docs",
      staticCSP: true,
      // Its pages are documents: helmet's whole set, not only the API's part.
      uiHooks: {
        onRequest: (_request, reply, done) => {
          void reply.headers(fastify.documentHeaders);
          done();
        },
      },
    });
  },
  { name: "swagger", dependencies: ["security"] },
);

/**
 * @fastify/swagger marks every body required, but a route whose body schema accepts null takes a request with none
 * (Fastify reads it as null): its body is optional, so the generated client does not demand one.
 */
function optionalNullableBodies<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, { requestBody?: OpenApiBody }>> }).paths ?? {};
  for (const operation of Object.values(paths).flatMap((methods) => Object.values(methods))) {
    const media = Object.values(operation.requestBody?.content ?? {});
    if (operation.requestBody && media.length > 0 && media.every((type) => type.schema?.nullable === true)) operation.requestBody.required = false;
  }
  return document;
}

interface OpenApiBody {
  required?: boolean;
  content?: Record<string, { schema?: { nullable?: boolean } }>;
}
