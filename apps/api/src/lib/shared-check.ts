/** What a check found, and when it finished (ms since the epoch). */
export type CheckOutcome = { ok: true; at: number } | { ok: false; at: number; error: unknown };

export class CheckTimedOutError extends Error {
  override name = "CheckTimedOutError";
}

export interface SharedCheckOptions {
  /** The check itself: resolves when all is well, rejects (or never settles) when not. */
  check: () => Promise<unknown>;
  /** How long an outcome is reused before the next caller runs the check again. */
  freshMs: number;
  /** A check that has not answered by then counts as failed. */
  timeoutMs: number;
}

/** Checks still running at once at most, those that timed out included. */
const MAX_RUNNING = 3;

/**
 * A check that callers share: an outcome is reused for `freshMs`; past it, the first caller runs the check and every
 * caller meanwhile waits for that same run, so a flood of callers costs at most one check per `freshMs`. A check that
 * does not answer within `timeoutMs` fails, and the next one starts after `freshMs` (so that a database that is back
 * is seen at once, whatever became of the hung query), but no more than MAX_RUNNING run at once: hung queries do
 * not pile up one an interval. Past that, callers get the last failure until one settles.
 */
export function sharedCheck({ check, freshMs, timeoutMs }: SharedCheckOptions): () => CheckOutcome | Promise<CheckOutcome> {
  let last: CheckOutcome | undefined;
  let waiting: Promise<CheckOutcome> | undefined;
  let running = 0;

  function run(): Promise<CheckOutcome> {
    running++;
    let started: Promise<unknown>;
    try {
      started = Promise.resolve(check());
    } catch (error) {
      started = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const checked = started.finally(() => {
      running--;
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new CheckTimedOutError(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([checked, timedOut])
      .then(
        (): CheckOutcome => ({ ok: true, at: Date.now() }),
        (error: unknown): CheckOutcome => ({ ok: false, at: Date.now(), error }),
      )
      .then((outcome) => {
        clearTimeout(timer);
        last = outcome;
        waiting = undefined;
        return outcome;
      });
  }

  return () => {
    if (last && Date.now() - last.at < freshMs) return last;
    if (waiting) return waiting;
    if (running >= MAX_RUNNING && last) return last;
    waiting = run();
    return waiting;
  };
}
