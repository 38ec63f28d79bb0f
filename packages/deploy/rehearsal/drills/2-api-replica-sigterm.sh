#!/usr/bin/env bash
# Drill 2: SIGTERM to an API replica while requests are in flight. The requests are made slow on purpose: the
# indexer is hung (SIGSTOP), so each streak read that bypasses the cache waits for INDEXER_TIMEOUT (3 s) and then
# answers from the cache, flagged stale. Goals: every request in flight when the signal came gets its answer (a
# 200, not a 502 from Caddy or a reset), so does every request of steady GET traffic across the shutdown (Caddy
# keeps its keep-alive connections to the closing replica), and the replica is replaced.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

victim=$(healthy_containers_of api | head -1)
indexer=$(containers_of indexer | head -1)
addresses=()
for i in $(seq 10 29); do addresses+=("0x00000000000000000000000000000000000000$i"); done
for address in "${addresses[@]}"; do
  curl -fsS --max-time 10 "$WEB_URL/api/streaks/current?userAddress=$address" >/dev/null || fail "could not warm the cache for $address"
done
indexer_pids=$(container_pids "$indexer")
kill -STOP $indexer_pids
trap 'kill -CONT $indexer_pids 2>/dev/null' EXIT
drill "the indexer hung (kill -STOP $indexer_pids); ${#addresses[@]} streak reads that bypass the cache sent through Caddy at once"
out=$(mktemp)
for address in "${addresses[@]}"; do
  curl -sS --max-time 20 -o /dev/null -w "%{http_code} %{time_total}\n" "$WEB_URL/api/streaks/current?userAddress=$address&bypassCache=true" >>"$out" 2>&1 &
done
start_traffic "$WEB_URL/api/ready" 15 4 10000 20
sleep 1
pid=$(app_pid "$victim")
signalled=$(date +%s%N)
drill "kill -TERM $pid (the API process of $victim) 1 s later, while they wait for the indexer"
kill -TERM "$pid"
wait $(jobs -p | grep -vx "$TRAFFIC_PID") 2>/dev/null
kill -CONT $indexer_pids
drill "in flight: $(sort "$out" | cut -d' ' -f1 | uniq -c | tr -s ' ' | tr '\n' ';') slowest $(sort -k2 -n "$out" | tail -1 | cut -d' ' -f2) s"
exited=""
for _ in $(seq 1 150); do
  [ "$("$DOCKER" inspect --format '{{.State.Running}}' "$victim" 2>/dev/null)" = true ] || { exited=$((($(date +%s%N) - signalled) / 1000000)); break; }
  sleep 0.2
done
[ -n "$exited" ] || fail "$victim did not exit within 30 s of the signal"
back=$(wait_service_healthy api 180 2 "$victim") || fail "$victim was not replaced by a healthy replica"
drill "$victim exited ${exited:-?} ms after the signal; two healthy replicas again $back s after it"
[ "$(grep -vc '^200 ' "$out")" = 0 ] || fail "a request in flight did not get its 200"
finish_traffic 3000
[ "$(traffic_field failed)" = 0 ] || fail "GETs failed while the replica shut down"
[ "$DRILL_FAILED" = 0 ] && drill "passed: every request in flight answered, the replica shut down and was replaced"
exit "$DRILL_FAILED"
