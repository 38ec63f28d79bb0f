import type { FastifyBaseLogger } from "fastify";

/** Runs `task` every `intervalMs` (never overlapping) until stopped; `stop` waits for the run in flight. */
export function startLoop(name: string, intervalMs: number, task: () => Promise<unknown>, log: FastifyBaseLogger) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const tick = () => {
    running = task()
      .then(() => undefined)
      .catch((error: unknown) => log.error({ err: error, loop: name }, "background task failed"))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
