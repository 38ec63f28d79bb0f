#!/usr/bin/env bash
# Drill 8: the two API replicas spend one rate-limit budget, counted in the stack's Redis (the production images:
# the API's batched store against the Redis the compose file runs). Through Caddy, which takes the replicas in turn,
# a client that is not signed in sends requests that reach the indexer about a wallet (GET /api/streaks/current with
# bypassCache=true: the per-address budget, keyed by the client's IP without a session), a few more than
# RATE_LIMIT_PER_ADDRESS allows in a window.
# Goals: exactly the budget answered 200 and every later request 429 with retry-after, although both replicas
# answered some (counted in each replica's memory, twice the budget would pass); each replica's
# oro_api_rate_limit_store_up reads 1. The drill's counters are deleted afterwards, so the drills after it are not
# limited.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

api_replicas || exit 1
redis=$(containers_of redis | head -1)
[ -n "$redis" ] || { fail "no redis container"; exit 1; }
# The password from the container's own secret (the stack's Redis refuses a client without it).
redis_cli() { "$DOCKER" exec "$redis" sh -c 'REDISCLI_AUTH="$(cat /run/secrets/redis_password)" exec redis-cli "$@"' redis-cli "$@"; }
# The anonymous per-address counters (the plugin's keys end in anonymous:<client IP>).
anonymous_keys() { redis_cli --scan --pattern '*anonymous:*'; }
forget_anonymous() { anonymous_keys | while read -r key; do [ -z "$key" ] || redis_cli DEL "$key" >/dev/null; done; }
# A replica's Prometheus text (METRICS_PORT, inside the stack's network only).
metrics_of() { "$DOCKER" exec "$1" node -e 'fetch("http://127.0.0.1:9464/metrics").then((r) => r.text()).then((t) => process.stdout.write(t)).catch((e) => { console.error(e.message); process.exit(1); })'; }
series() { awk -v name="$2" 'index($0, name " ") == 1 { print $2; found = 1 } END { if (!found) print 0 }' <<<"$1"; }
ROUTE_200='oro_api_http_requests_total{route="/api/streaks/current",method="GET",status="200"}'
ROUTE_429='oro_api_http_requests_total{route="/api/streaks/current",method="GET",status="429"}'

budget=$("$DOCKER" exec "${replicas[0]}" printenv RATE_LIMIT_PER_ADDRESS 2>/dev/null || true)
budget=${budget:-60} # the API's default
extra=5
declare -A before200 before429
for replica in "${replicas[@]}"; do
  text=$(metrics_of "$replica") || { fail "could not read $replica's metrics"; exit 1; }
  up=$(series "$text" oro_api_rate_limit_store_up)
  drill "$replica: oro_api_rate_limit_store_up $up"
  [ "$up" = 1 ] || fail "$replica's rate-limit store is not counting in Redis (gauge $up)"
  before200[$replica]=$(series "$text" "$ROUTE_200")
  before429[$replica]=$(series "$text" "$ROUTE_429")
done

forget_anonymous
drill "$((budget + extra)) requests through Caddy, one after the other, to /api/streaks/current?bypassCache=true (a per-address budget of $budget)"
statuses=$(node -e '
  const [url, count] = [process.argv[1], Number(process.argv[2])];
  (async () => {
    const out = [];
    for (let i = 0; i < count; i++) {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      out.push(response.status === 429 && !response.headers.get("retry-after") ? "429-without-retry-after" : String(response.status));
    }
    console.log(out.join(" "));
  })().catch((error) => { console.error(error.message); process.exit(1); });
' "$WEB_URL/api/streaks/current?userAddress=$PROBE_ADDRESS&bypassCache=true" "$((budget + extra))") || { fail "the requests did not complete"; forget_anonymous; exit 1; }
expected="$(printf '200 %.0s' $(seq 1 "$budget"))$(printf '429 %.0s' $(seq 1 "$extra"))"
if [ "$statuses " = "$expected" ]; then
  drill "answers: $budget × 200, then $extra × 429 with retry-after"
else
  fail "answers were not $budget × 200 then $extra × 429: $(tr ' ' '\n' <<<"$statuses" | sort | uniq -c | tr -s ' \n' ' ')"
fi

total=0
for replica in "${replicas[@]}"; do
  text=$(metrics_of "$replica") || { fail "could not read $replica's metrics"; continue; }
  served=$(($(series "$text" "$ROUTE_200") + $(series "$text" "$ROUTE_429") - ${before200[$replica]} - ${before429[$replica]}))
  total=$((total + served))
  drill "$replica answered $served of them"
  [ "$served" -gt 0 ] || fail "$replica answered none: Caddy did not spread the requests, the budget's sharing is not shown"
done
[ "$total" = "$((budget + extra))" ] || fail "the replicas counted $total answers, not $((budget + extra))"
forget_anonymous
[ "$DRILL_FAILED" = 0 ]
