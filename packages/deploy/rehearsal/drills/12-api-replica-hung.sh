#!/usr/bin/env bash
# Drill 12: a hung API replica (SIGSTOP: its socket still accepts, nothing answers) under steady GET traffic through
# Caddy. What takes it out of rotation: Caddy's response-header timeout (10 s) fails the requests it has, and its
# passive health check then keeps it out for 10 s at a time; the replica's healthcheck (/api/ready every 5 s, 3 s
# timeout, 3 retries) marks it unhealthy, and swarm mode takes it out of Docker's DNS (Caddy re-resolves every 2 s)
# and starts a replacement. Measured: the failed requests, and how long after the stop the last one failed.
# Goals: failures only in the first 30 s after the stop (the timeouts above add up to about 25 s), none after; two
# healthy replicas again.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

WINDOW_S=30
api_replicas || exit 1
victim=${replicas[0]}
drill "steady GETs through Caddy for 90 s (/api/ready, 4 at a time); kill -STOP the API in $victim at 10 s"
traffic_started_ms=$(($(date +%s%N) / 1000000))
start_traffic "$WEB_URL/api/ready" 90 4 20000 50
sleep 10
pid=$(app_pid "$victim")
stopped_ms=$(($(date +%s%N) / 1000000))
kill -STOP "$pid"
# Swarm stops the unhealthy task with SIGTERM, which a stopped process receives only as the SIGKILL at the end of the
# API's stop_grace_period (API_STOP_GRACE_PERIOD: 270 s in production, so that a healthy replica's reminder requests
# are answered; 30 s here, where the outbox sends none), and only then starts its replacement: out of rotation within
# seconds, two healthy replicas again within the grace period and a start.
replaced=$(wait_service_healthy api 420 2 "$victim") || fail "no healthy replacement within 420 s"
drill "two healthy replicas without $victim again $replaced s after the stop ($(health_of "$victim" 2>/dev/null || echo gone))"
kill -CONT "$pid" 2>/dev/null || true
finish_traffic 5000
# When (s after the stop) the failures happened.
report=$(node -e '
  const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").at(-1));
  const offset = (Number(process.argv[2]) - Number(process.argv[3])) / 1000;
  const failedSeconds = s.perSecond.filter((x) => x.failed > 0).map((x) => x.second - offset);
  console.log(JSON.stringify({ failed: s.failed, byStatus: s.byStatus, lastFailureAfterStopS: failedSeconds.length ? Math.max(...failedSeconds) : null }));
' "$TRAFFIC_OUT" "$stopped_ms" "$traffic_started_ms")
drill "measured: $report"
last=$(node -e 'console.log(JSON.parse(process.argv[1]).lastFailureAfterStopS ?? -1)' "$report")
node -e 'process.exit(Number(process.argv[1]) <= Number(process.argv[2]) ? 0 : 1)' "$last" "$WINDOW_S" ||
  fail "requests still failed $last s after the stop (more than $WINDOW_S s)"
[ "$DRILL_FAILED" = 0 ] && drill "passed: the hung replica left rotation; the last failure $last s after the stop"
exit "$DRILL_FAILED"
