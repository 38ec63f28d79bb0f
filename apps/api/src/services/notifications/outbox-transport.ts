import type { FastifyBaseLogger } from "fastify";
import type { PrismaClient } from "../../generated/prisma/client.js";
import { refuseWhatWorldRefuses, TransportError, worldRequestBody, type NotificationTransport } from "./transport.js";

/**
 * The development transport: every notification becomes a row of `notification_outbox` (in the user's
 * language, or in English when World lacks it, as World App shows it, with the deep link) and a log line, and
 * counts as sent. It refuses exactly what World's API refuses, so a stack run fails as production would.
 */
export function createOutboxTransport(prisma: PrismaClient, log: FastifyBaseLogger, appId: string): NotificationTransport {
  return {
    name: "outbox",
    maxRecipients: 1_000,
    async send(recipients, notification, requestStarting) {
      refuseWhatWorldRefuses(worldRequestBody(appId, recipients, notification));
      try {
        await requestStarting?.();
      } catch (error) {
        // Nothing was written: as a request whose body never left World's transport, it may be sent again.
        throw new TransportError(`the request never left: ${(error as Error).message}`, true);
      }
      const english = notification.localisations.find((entry) => entry.language === "en");
      const rows = recipients.map((recipient) => {
        const text = notification.localisations.find((entry) => entry.language === recipient.locale) ?? english;
        return {
          jobId: recipient.jobId,
          address: recipient.address,
          language: text?.language ?? recipient.locale,
          title: text?.title ?? "",
          message: text?.message ?? "",
          miniAppPath: notification.miniAppPath,
        };
      });
      await prisma.notificationOutbox.createMany({ data: rows });
      for (const row of rows) {
        log.info({ to: row.address, language: row.language, link: row.miniAppPath }, `notification: ${row.title} — ${row.message}`);
      }
      return recipients.map((recipient) => ({ address: recipient.address, sent: true }));
    },
  };
}
