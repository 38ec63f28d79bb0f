import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor, RateLimitOptions } from "@fastify/rate-limit";
import type { Redis } from "ioredis";

/**
 * The rate limits' counters in Redis, every check of one turn of the event loop sent in one script call.
 *
 * @fastify/rate-limit's own Redis store sends one script call per check: a command, a write and a read on the Redis
 * connection for every request (two on routes with the per-address limit too), 9-10 µs of the API's CPU each in the
 * benchmark, a third of a cached read's cost. Here the checks a turn of the event loop brings (under load, every
 * request read in that turn) wait until its end (setImmediate) and go together: one script call that counts each key
 * as the plugin's own script does (INCR, the window's expiry set by the first request of a window) and returns each
 * count and time left. Each request still gets its own exact count from Redis: one budget across replicas, as before.
 *
 * Keys and values are the plugin's own (`<nameSpace><key>`, a child's `<nameSpace><method><url>-<key>`, a plain
 * counter with an expiry), so replicas of the previous release share the same counters during a rolling deploy.
 * Every key of a call must live on one Redis node: a single Redis or Valkey, as docker-compose runs (not a cluster).
 */

/** KEYS: the counters; ARGV[i]: the window in ms for KEYS[i]. Returns count and ms left, in pairs, in KEYS' order. */
const COUNT_ALL = `
local answer = {}
for i, key in ipairs(KEYS) do
  local window = tonumber(ARGV[i])
  local current = redis.call('INCR', key)
  local left
  if current == 1 then
    redis.call('PEXPIRE', key, window)
    left = window
  else
    left = redis.call('PTTL', key)
    -- A counter left without an expiry (it cannot happen here, but would lock its client out for ever) restarts its window.
    if left < 0 then
      redis.call('PEXPIRE', key, window)
      left = window
    end
  end
  answer[2 * i - 1] = current
  answer[2 * i] = left
end
return answer
`;

/** At most this many checks in one script call: Redis runs a script alone, so none holds it for long. */
const MAX_CHECKS_PER_CALL = 256;

type Callback = Parameters<FastifyRateLimitStore["incr"]>[1];
interface Check {
  key: string;
  windowMs: number;
  callback: Callback;
}
/**
 * What the plugin passes a store at run time: its merged options, and for a child the route it counts for in
 * `routeInfo` (the plugin's type declarations name a child's argument otherwise).
 */
type StoreOptions = RateLimitOptions & { routeInfo?: { method?: string; url?: string } };
type CountingRedis = Redis & { oroCountRateLimits(keyCount: number, ...keysThenWindows: (string | number)[]): Promise<number[]> };

/** Collects the checks of one turn of the event loop and sends them in script calls at its end. */
class Batcher {
  private queue: Check[] = [];
  private scheduled = false;

  constructor(
    private readonly redis: CountingRedis,
    private readonly counted: (failure?: Error) => void,
  ) {}

  add(check: Check): void {
    this.queue.push(check);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const checks = this.queue;
    this.queue = [];
    for (let start = 0; start < checks.length; start += MAX_CHECKS_PER_CALL) this.send(checks.slice(start, start + MAX_CHECKS_PER_CALL));
  }

  private send(checks: Check[]): void {
    const keys = checks.map((check) => check.key);
    const windows = checks.map((check) => check.windowMs);
    this.redis.oroCountRateLimits(checks.length, ...keys, ...windows).then(
      (answer) => {
        this.counted();
        for (const [index, check] of checks.entries()) {
          const current = answer[2 * index];
          const ttl = answer[2 * index + 1];
          if (typeof current !== "number" || typeof ttl !== "number") check.callback(new Error("rate-limit store: a short answer"));
          else check.callback(null, { current, ttl });
        }
      },
      (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        this.counted(failure);
        for (const check of checks) check.callback(failure);
      },
    );
  }
}

/**
 * The store class @fastify/rate-limit's `store` option takes (it calls `new Store(globalParams)`). `counted` hears
 * how each call went: the plugin lets a request through when its count fails (skipOnError) and says nothing, so a
 * Redis that answers but refuses to count (out of memory, say) would otherwise go unseen.
 */
export function batchedRedisStore(redis: Redis, nameSpace: string, counted: (failure?: Error) => void = () => {}): FastifyRateLimitStoreCtor {
  const counting = redis as CountingRedis;
  if (typeof counting.oroCountRateLimits !== "function") counting.defineCommand("oroCountRateLimits", { lua: COUNT_ALL });
  const batcher = new Batcher(counting, counted);

  return class BatchedRedisStore implements FastifyRateLimitStore {
    readonly prefix: string;

    constructor(options: StoreOptions = {}, prefix = nameSpace) {
      // The plugin's variants that change the window after the budget is spent are not counted by this script.
      if (options.continueExceeding || options.exponentialBackoff) throw new Error("the batched rate-limit store supports neither continueExceeding nor exponentialBackoff");
      this.prefix = prefix;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      batcher.add({ key: this.prefix + key, windowMs: timeWindow, callback });
    }

    child(routeOptions: Parameters<FastifyRateLimitStore["child"]>[0]): BatchedRedisStore {
      const options = routeOptions as unknown as StoreOptions;
      // A route's own limit is named by its route; a limit made with createRateLimit has none (the plugin's Redis
      // store wrote "undefinedundefined-" there): its keys carry their own kind (address:, anonymous:).
      const route = options.routeInfo?.url === undefined ? "own-" : `${options.routeInfo.method}${options.routeInfo.url}-`;
      return new BatchedRedisStore(options, `${this.prefix}${route}`);
    }
  };
}
