import type { FastifyBaseLogger } from "fastify";

/**
 * Runs `task` every `intervalMs` (never overlapping) until stopped; `stop` aborts the task's signal (a long pass takes
 * no new work once it is aborted) and waits for the run in flight.
 */
export function startLoop(name: string, intervalMs: number, task: (stopping: AbortSignal) => Promise<unknown>, log: FastifyBaseLogger) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const stopping = new AbortController();

  const tick = () => {
    running = task(stopping.signal)
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
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
