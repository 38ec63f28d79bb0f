#!/usr/bin/env bash
# Drill 5: a deploy of changed indexing code with zero downtime. Changed code gets a schema of its own (the
# indexer names its schema after its code's fingerprint) and backfills from the start; here a second indexer from
# the same image with another INDEXER_SCHEMA_PREFIX stands in for it, as it also needs a fresh schema and a full
# backfill. The old indexer serves until the new one's /ready says it caught up; then the new one takes the
# network name the API asks for ("indexer") and the old one stops. Goals: throughout, every streak read that asks
# the indexer (bypassCache) gets a fresh answer: no 503, no stale answer, so the API never missed the indexer.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

old=$(containers_of indexer | head -1)
new=oro-rehearsal-indexer-next
network=$("$DOCKER" inspect --format '{{range $name, $_ := .NetworkSettings.Networks}}{{$name}}{{end}}' "$old")
envfile="$REHEARSAL_DIR/indexer-next.env"
"$DOCKER" rm -f "$new" >/dev/null 2>&1 || true
"$DOCKER" inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$old" | sed 's/^INDEXER_SCHEMA_PREFIX=.*/INDEXER_SCHEMA_PREFIX=oro_next/' >"$envfile"
chmod 600 "$envfile"

drill "streak reads that ask the indexer every time (bypassCache), through Caddy, during the whole deploy"
outs=() pids=()
for address in 0x00000000000000000000000000000000000000a1 0x00000000000000000000000000000000000000a2 0x00000000000000000000000000000000000000a3; do
  curl -fsS --max-time 10 "$WEB_URL/api/streaks/current?userAddress=$address" >/dev/null || fail "no streak for $address before the drill"
  # Paced under the per-address limit of reads that reach the indexer (60 a minute).
  start_traffic "$WEB_URL/api/streaks/current?userAddress=$address&bypassCache=true" 600 1 20000 1100
  outs+=("$TRAFFIC_OUT") pids+=("$TRAFFIC_PID")
done

started=$(date +%s)
# The compose project's label: down.sh removes it with the rest of the stack.
"$DOCKER" run -d --init --name "$new" --network "$network" --env-file "$envfile" \
  --label com.docker.compose.project="$COMPOSE_PROJECT" --label com.docker.compose.service=indexer-next \
  "$("$DOCKER" inspect --format '{{.Config.Image}}' "$old")" >/dev/null || { fail "the new indexer did not start"; exit 1; }
drill "started $new (schema prefix oro_next) beside $old, which keeps serving"
caught_up=""
for _ in $(seq 1 300); do
  if "$DOCKER" exec "$new" node -e "fetch('http://127.0.0.1:42069/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" 2>/dev/null; then
    caught_up=$(($(date +%s) - started))
    break
  fi
  sleep 2
done
[ -n "$caught_up" ] || { fail "the new indexer did not catch up within 600 s"; "$DOCKER" logs --tail 20 "$new" >&2; }
drill "$new caught up (its /ready) $caught_up s after it started"

if [ -n "$caught_up" ]; then
  # The switch: the new indexer answers to the name "indexer" too (both serve for a moment), then the old one stops.
  "$DOCKER" network disconnect "$network" "$new" && "$DOCKER" network connect --alias indexer "$network" "$new" || fail "could not give $new the name indexer"
  sleep 2
  "$DOCKER" stop -t 20 "$old" >/dev/null
  drill "traffic moved: $new answers as indexer, $old stopped"
  sleep 20
fi
kill -TERM "${pids[@]}" 2>/dev/null
wait "${pids[@]}"
rm -f "$envfile"

for out in "${outs[@]}"; do
  TRAFFIC_OUT=$out TRAFFIC_PID=
  finish_traffic 3000
  [ "$(traffic_field failed)" = 0 ] || fail "$(traffic_field failed) reads failed"
  [ "$(traffic_field stale)" = 0 ] || fail "$(traffic_field stale) reads were served stale: the API missed the indexer"
done
[ "$DRILL_FAILED" = 0 ] && drill "passed: the old indexer served until the new one caught up, the API never missed one"
exit "$DRILL_FAILED"
