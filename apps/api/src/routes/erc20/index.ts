import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { errorResponses } from "../../schemas/common.js";
import { tokenPriceQuerySchema, tokenPricesResponseSchema } from "../../schemas/erc20.js";

const erc20Routes: FastifyPluginCallbackZod = (fastify, _options, done) => {
  fastify.get(
    "/token-price",
    {
      schema: {
        tags: ["erc20"],
        summary: "USD price and 24-hour change per token (cached for a minute)",
        description: "An unknown token is absent from the map. PRICE_UNAVAILABLE (503) when the price source fails.",
        querystring: tokenPriceQuerySchema,
        response: { 200: tokenPricesResponseSchema, ...errorResponses(400, 429, 503) },
      },
    },
    (request) => fastify.services.prices.prices(request.query.tokenAddresses),
  );
  done();
};

export default erc20Routes;
