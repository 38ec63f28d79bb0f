import { DeadlineExceededError, type Deadline } from "../../lib/deadline.js";
import { IndexerUnavailableError, type IndexerClient } from "./client.js";

/** The request's time for the indexer ran out: treated like an indexer that does not answer. */
export class IndexerDeadlineExceededError extends IndexerUnavailableError {
  override name = "IndexerDeadlineExceededError";
}

/** The same indexer, every call bounded by `deadline` (whatever methods the client has). */
export function indexerWithin(indexer: IndexerClient, deadline: Deadline): IndexerClient {
  return new Proxy(indexer, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) =>
        deadline.run(() => method.apply(target, args)).catch((error: unknown) => {
          throw error instanceof DeadlineExceededError ? new IndexerDeadlineExceededError(`indexer: ${error.message}`, { cause: error }) : error;
        });
    },
  });
}
