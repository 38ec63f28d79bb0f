#!/usr/bin/env bash
# Drill 4: the indexer stopped (its container gone from the network, until swarm mode's replacement is ready), then
# hung (SIGSTOP to its processes: the socket accepts, nothing answers). Goals: every answer of the routes that read the indexer comes within the
# deadline (INDEXER_TIMEOUT, 3 s, plus 2 s for the way through Caddy), each a 200 (served from the cache, flagged
# stale once it is older than its TTL) or a 503; none hangs, none is another error.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

DEADLINE_MS=5000
indexer=$(containers_of indexer | head -1)
# One address read through the cache (warmed first), one asking the indexer every time (bypassCache, paced
# under its per-address limit), and the token stats.
cached="$WEB_URL/api/streaks/current?userAddress=$PROBE_ADDRESS"
bypass="$WEB_URL/api/streaks/current?userAddress=0x000000000000000000000000000000000000bEEF&bypassCache=true"
stats="$WEB_URL/api/stats"
curl -fsS --max-time 10 "$cached" >/dev/null && curl -fsS --max-time 10 "$stats" >/dev/null || fail "the routes did not answer before the drill"

drill "GET traffic through Caddy for 75 s: a cached streak, a streak that bypasses the cache, the token stats"
outs=() pids=()
for spec in "$cached 2 100" "$bypass 1 1100" "$stats 1 200"; do
  set -- $spec
  start_traffic "$1" 75 "$2" 20000 "$3"
  outs+=("$TRAFFIC_OUT") pids+=("$TRAFFIC_PID")
done
sleep 5
drill "docker stop $indexer at 5 s"
"$DOCKER" stop -t 10 "$indexer" >/dev/null
back=$(wait_service_healthy indexer 120 1 "$indexer") || fail "no new indexer became healthy within 120 s"
indexer=$(healthy_containers_of indexer | head -1)
drill "swarm's replacement $indexer healthy (caught up again) $back s after the stop"
sleep 5
hung=$(container_pids "$indexer")
drill "kill -STOP $hung(the indexer's processes): hung for 20 s"
kill -STOP $hung
sleep 20
kill -CONT $hung
drill "kill -CONT $hung"

for i in 0 1 2; do
  TRAFFIC_OUT=${outs[$i]} TRAFFIC_PID=${pids[$i]}
  finish_traffic "$DEADLINE_MS"
  over=$(traffic_field maxMs)
  other=$(node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").at(-1)); console.log(Object.entries(s.byStatus).filter(([k]) => k !== "200" && k !== "503").map(([k, v]) => k + ": " + v).join(", "))' "$TRAFFIC_OUT")
  drill "  200 flagged stale: $(traffic_field stale), 503: $(traffic_field 'byStatus["503"]'), slowest answer $over ms"
  [ "$over" -le "$DEADLINE_MS" ] || fail "an answer took $over ms (deadline $DEADLINE_MS ms)"
  [ -z "$other" ] || fail "answers other than 200 and 503: $other"
done
[ "$DRILL_FAILED" = 0 ] && drill "passed: every answer within $DEADLINE_MS ms, a 200 (fresh or stale) or a 503"
exit "$DRILL_FAILED"
