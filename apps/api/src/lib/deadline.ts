/** A deadline ran out before the work it bounds answered. */
export class DeadlineExceededError extends Error {
  override name = "DeadlineExceededError";
}

/**
 * One deadline for all the slow calls a request makes (the indexer, the chain): each call gets what is left
 * of it, so a request that needs several calls answers within the deadline, not within their sum.
 */
export interface Deadline {
  remainingMs(): number;
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function startDeadline(ms: number): Deadline {
  const at = Date.now() + ms;
  const remainingMs = () => at - Date.now();
  return {
    remainingMs,
    run<T>(work: () => Promise<T>): Promise<T> {
      const left = remainingMs();
      if (left <= 0) return Promise.reject(new DeadlineExceededError("the request's deadline has passed"));
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new DeadlineExceededError(`no answer within the request's deadline (${ms} ms)`)), left);
      });
      // A `work` that throws before it returns its promise answers with that error too: thrown out of the race, it
      // would leave the timer behind, and its rejection, which nobody awaits, would end the process when it fired.
      const answer = new Promise<T>((resolve) => resolve(work()));
      return Promise.race([answer, expired]).finally(() => clearTimeout(timer));
    },
  };
}
