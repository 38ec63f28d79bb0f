import { IndexerUnavailableError, type IndexerClient } from "./client.js";

/** The request's time for the indexer ran out: treated like an indexer that does not answer. */
export class DeadlineExceededError extends IndexerUnavailableError {
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
      if (left <= 0) return Promise.reject(new DeadlineExceededError("the request's deadline for the indexer has passed"));
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new DeadlineExceededError(`no answer within the request's deadline (${ms} ms)`)), left);
      });
      return Promise.race([work(), expired]).finally(() => clearTimeout(timer));
    },
  };
}

/** The same indexer, every call bounded by `deadline` (whatever methods the client has). */
export function indexerWithin(indexer: IndexerClient, deadline: Deadline): IndexerClient {
  return new Proxy(indexer, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => deadline.run(() => method.apply(target, args));
    },
  });
}
