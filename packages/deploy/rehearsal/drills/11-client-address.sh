#!/usr/bin/env bash
# Drill 11: the real client address behind a load balancer. stack.yml's `lb` stands in for a TLS balancer: it
# appends the address it sees to X-Forwarded-For and reaches Caddy over the `edge` network, which Caddy trusts
# (TRUSTED_PROXIES); the API counts two hops (TRUST_PROXY_HOPS=2). Two clients at two addresses (the API replicas'
# containers, on the stack's network) ask through the balancer for streaks that reach the indexer without a session:
# the per-address budget (RATE_LIMIT_PER_ADDRESS), keyed by the client's address.
# Goals: client A spends exactly its budget and is then refused (429), although every one of its requests carried a
# forged X-Forwarded-For from outside the trusted range (its own address counts, not the forged one); client B, at
# another address, still gets its answers (a budget of its own, not the balancer's); a forged header sent straight
# to Caddy, past the balancer, changes nothing either (Caddy replaces it). The counters are deleted afterwards.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

api_replicas || exit 1
client_a=${replicas[0]} client_b=${replicas[1]}
redis=$(containers_of redis | head -1)
redis_cli() { "$DOCKER" exec "$redis" sh -c 'REDISCLI_AUTH="$(cat /run/secrets/redis_password)" exec redis-cli "$@"' redis-cli "$@"; }
forget_anonymous() { redis_cli --scan --pattern '*anonymous:*' | while read -r key; do [ -z "$key" ] || redis_cli DEL "$key" >/dev/null; done; }
address_of() { "$DOCKER" inspect --format "{{(index .NetworkSettings.Networks \"${STACK}_default\").IPAddress}}" "$1"; }
# <container> <url> <count> [X-Forwarded-For]: the statuses of <count> GETs one after the other, from that container.
ask() {
  "$DOCKER" exec "$1" node -e '
    const [url, count, forged] = [process.argv[1], Number(process.argv[2]), process.argv[3]];
    (async () => {
      const out = {};
      for (let i = 0; i < count; i++) {
        const r = await fetch(url, { headers: forged ? { "x-forwarded-for": forged } : {}, signal: AbortSignal.timeout(10_000) });
        await r.arrayBuffer();
        out[r.status] = (out[r.status] ?? 0) + 1;
      }
      console.log(JSON.stringify(out));
    })().catch((e) => { console.error(e.message); process.exit(1); });' "$2" "$3" "${4:-}"
}

budget=$("$DOCKER" exec "$client_a" printenv RATE_LIMIT_PER_ADDRESS)
route="/api/streaks/current?userAddress=$PROBE_ADDRESS&bypassCache=true"
via_lb="http://lb:8081$route"
forget_anonymous
drill "client A ($(address_of "$client_a")) sends $((budget + 5)) requests through the balancer, each with X-Forwarded-For: 203.0.113.7 (forged; budget $budget)"
a=$(ask "$client_a" "$via_lb" $((budget + 5)) 203.0.113.7) || { fail "client A's requests did not complete"; forget_anonymous; exit 1; }
drill "client A: $a"
[ "$a" = "{\"200\":$budget,\"429\":5}" ] || fail "client A was not held to exactly its budget ($budget × 200, then 429)"
again=$(ask "$client_a" "$via_lb" 1 198.51.100.$((RANDOM % 200 + 1)))
drill "client A again, with another forged address: $again"
[ "$again" = '{"429":1}' ] || fail "a new forged X-Forwarded-For gave client A a new budget"
direct=$(ask "$client_a" "http://web:8080$route" 1 192.0.2.44)
drill "client A straight to Caddy (past the balancer), forged X-Forwarded-For: $direct"
[ "$direct" = '{"429":1}' ] || fail "a forged X-Forwarded-For sent straight to Caddy gave client A a new budget"
b=$(ask "$client_b" "$via_lb" 5)
drill "client B ($(address_of "$client_b")) through the balancer: $b"
[ "$b" = '{"200":5}' ] || fail "client B shares client A's budget (the balancer's address counted, not the client's)"
keys=$(redis_cli --scan --pattern '*anonymous:*' | tr '\n' ' ')
drill "the budgets counted in Redis: $keys"
[[ "$keys" == *"$(address_of "$client_a")"* ]] || fail "no budget keyed by client A's address"
[[ "$keys" != *203.0.113.7* && "$keys" != *192.0.2.44* ]] || fail "a forged address got a budget"
forget_anonymous
[ "$DRILL_FAILED" = 0 ] && drill "passed: each client its own budget behind the balancer; forged addresses change nothing"
exit "$DRILL_FAILED"
