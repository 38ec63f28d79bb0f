import type { FastifyBaseLogger } from "fastify";
import type { PrismaClient } from "../../generated/prisma/client.js";
import { readWorldAnswer, refuseWhatWorldRefuses, TransportError, worldRequestBody, type NotificationTransport } from "./transport.js";
import { createWorldRoute, usualWorldApp, worldApiKey, type WorldAppDevice, type WorldRoute, type WorldUpstream } from "./world-route.js";

/** Where the devices the simulator told are kept, so that every replica's outbox answers with the same ones. */
const DEVICES_SETTING = "development_world_devices";

/**
 * Records what the simulator told of some devices (POST /api/dev/world-app) where every replica reads it: the
 * simulator reaches one replica through the load balancer, and the reminder may be sent by another.
 */
export async function rememberDevices(prisma: PrismaClient, world: DevelopmentWorld, devices: Record<string, WorldAppDevice>): Promise<void> {
  for (const [address, device] of Object.entries(devices)) world.devices.set(address, device);
  await prisma.$transaction(async (tx) => {
    const stored = await tx.setting.findUnique({ where: { key: DEVICES_SETTING } });
    const all = { ...(stored ? (JSON.parse(stored.value) as Record<string, WorldAppDevice>) : {}), ...devices };
    const value = JSON.stringify(all);
    await tx.setting.upsert({ where: { key: DEVICES_SETTING }, create: { key: DEVICES_SETTING, value }, update: { value } });
  });
}

async function recallDevices(prisma: PrismaClient, world: DevelopmentWorld): Promise<void> {
  const stored = await prisma.setting.findUnique({ where: { key: DEVICES_SETTING } });
  if (!stored) return;
  for (const [address, device] of Object.entries(JSON.parse(stored.value) as Record<string, WorldAppDevice>)) world.devices.set(address, device);
}

/** World as the development outbox plays it: its route (world-route.ts) and the key the API presents to it. */
export interface DevelopmentWorld {
  route: WorldRoute;
  apiKey: string;
  /** Each address's World App, as the simulator tells it (POST /api/dev/world-app). */
  devices: Map<string, WorldAppDevice>;
  /** What World's upstream send does with the next requests (the simulator can make it throttle). */
  upstream: WorldUpstream;
}

/**
 * World for the development outbox: the configured app, verified unless WORLD_APP_VERIFIED says otherwise (its
 * 40-per-4-hours quota would stop a day of development), with World's per-day setting as configured; every address's
 * World App in the language its user chose in the mini app and allowing notifications, until the simulator says.
 */
export function createDevelopmentWorld(notifications: { appId: string; perUserPerDay: number | null; worldVerified: boolean | "auto" }): DevelopmentWorld {
  const apiKey = worldApiKey("development", "development");
  const world: DevelopmentWorld = {
    apiKey,
    devices: new Map(),
    upstream: "delivers",
    route: createWorldRoute({
      app: usualWorldApp(notifications.appId, apiKey, { verified: notifications.worldVerified !== false, perUserPerDay: notifications.perUserPerDay }),
      deviceOf: (address) => world.devices.get(address),
      upstream: () => world.upstream,
    }),
  };
  return world;
}

/**
 * The development transport: each request is answered by a stand-in of World's send-notification route
 * (world-route.ts: its refusals, the unverified app's quota, its timing, a result per address), and what World would
 * have done with each address becomes a row of `notification_outbox` and a log line: delivered in the text of the
 * user's World App language (English for one World lacks), or not, with World's reason. The user's World App language
 * is the one the simulator told, else the language the user chose in the mini app. The answer is then read as the
 * world-app transport reads World's, so a stack run fails as production would.
 */
export function createOutboxTransport(prisma: PrismaClient, log: FastifyBaseLogger, appId: string, world: DevelopmentWorld): NotificationTransport {
  return {
    name: "outbox",
    maxRecipients: 1_000,
    async send(recipients, notification, requestStarting) {
      const body = worldRequestBody(appId, recipients, notification);
      refuseWhatWorldRefuses(body);
      try {
        await requestStarting?.();
      } catch (error) {
        // Nothing was written: as a request whose body never left World's transport, it may be sent again.
        throw new TransportError(`the request never left: ${(error as Error).message}`, "not-sent");
      }
      await recallDevices(prisma, world);
      const chosen = new Map(recipients.map((recipient) => [recipient.address.toLowerCase(), recipient.locale]));
      const answer = world.route.answer(`Bearer ${world.apiKey}`, JSON.stringify(body), (address) => chosen.get(address.toLowerCase()) ?? "en");
      // World answers a request whose upstream it retried only after its tries.
      if (answer.afterMs > 0) await new Promise((resolve) => setTimeout(resolve, answer.afterMs));
      const jobOf = new Map(recipients.map((recipient) => [recipient.address.toLowerCase(), recipient.jobId]));
      const rows = answer.deliveries.map((delivery) => ({
        jobId: jobOf.get(delivery.address.toLowerCase()) ?? null,
        address: delivery.address,
        language: delivery.language,
        title: delivery.text?.title ?? "",
        message: delivery.text?.message ?? "",
        miniAppPath: notification.miniAppPath,
        sent: delivery.sent,
        reason: delivery.reason ?? null,
      }));
      if (rows.length > 0) await prisma.notificationOutbox.createMany({ data: rows });
      for (const row of rows) {
        if (row.sent) log.info({ to: row.address, language: row.language, link: row.miniAppPath }, `notification: ${row.title} — ${row.message}`);
        else log.info({ to: row.address, language: row.language, reason: row.reason }, "notification not delivered");
      }
      return readWorldAnswer(answer.status, typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body), recipients);
    },
  };
}
