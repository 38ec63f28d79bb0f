import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../../env.js";
import { LOCALES, toLocale, type Locale } from "../../lib/locales.js";
import { invitePreviewHtml } from "../../services/referrals/invite-preview.js";

/** The preview images, one per language, rendered at build time (scripts/render-invite-images.ts). */
export const INVITE_IMAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "assets", "invite");

const previewQuerySchema = z.object({
  referralCode: z.string().trim().regex(/^[A-Za-z0-9]{1,32}$/).transform((code) => code.toUpperCase()),
  // A username as the web app puts it in the link; anything else is left out of the preview.
  referredBy: z.string().trim().max(64).optional().catch(undefined),
  lang: z.string().max(35).optional().catch(undefined),
});

const imageParamsSchema = z.object({ file: z.enum(LOCALES.map((locale) => `${locale}.png`)) });

/**
 * The invite link's preview (`/invite?referralCode&referredBy&lang`, which Caddy and the dev stack's web server send
 * here as `/api/invite`): Open Graph and X card tags in the sharer's language, with the language's image, and a
 * refresh that takes a person on to the app's deep link. Public, HTML and PNG: out of the OpenAPI document.
 */
const inviteRoutes: FastifyPluginCallbackZod<{ config: Config }> = (fastify, { config }, done) => {
  const images = new Map<string, Buffer>(LOCALES.map((locale: Locale) => [`${locale}.png`, readFileSync(path.join(INVITE_IMAGE_DIR, `${locale}.png`))]));

  fastify.get(
    "",
    { schema: { hide: true, querystring: previewQuerySchema } },
    async (request, reply) => {
      const html = invitePreviewHtml({
        referralCode: request.query.referralCode,
        referredBy: request.query.referredBy || undefined,
        locale: toLocale(request.query.lang),
        // Configured, never the request's Host: this page is cached publicly (a forged Host would poison the caches).
        origin: config.publicOrigin,
      });
      // A document: helmet's whole set, except that World App opens the path in its web view and the simulator in a
      // frame (the page holds no action worth framing).
      void reply.headers(fastify.documentHeaders).removeHeader("x-frame-options");
      return reply.type("text/html; charset=utf-8").header("cache-control", "public, max-age=300").send(html);
    },
  );

  fastify.get(
    "/image/:file",
    { schema: { hide: true, params: imageParamsSchema } },
    async (request, reply) => {
      const image = images.get(request.params.file);
      if (!image) return reply.code(404).send();
      return reply.type("image/png").header("cache-control", "public, max-age=86400").send(image);
    },
  );
  done();
};

export default inviteRoutes;
