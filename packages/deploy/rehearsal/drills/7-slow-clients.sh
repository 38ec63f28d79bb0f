#!/usr/bin/env bash
# Drill 7: slow clients through Caddy (slowloris): 50 connections that send a request's headers and stall in its
# body, and 50 that stall in their headers. Goals: every one is cut off within 15 s (Caddy's header and body
# timeouts, 10 s; the API's own body deadline behind it), none holds its socket. Caddy 2.6 has no cap on the
# connections of one client address: that bound belongs in front of it (deploy/Caddyfile).
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

drill "50 connections stalling in the body, 50 in the headers, through Caddy; given up on after 40 s"
summary=$(node "$DRILL_DIR/slow-clients.mjs" 127.0.0.1 "${WEB_URL##*:}" 50 40) || { fail "the slow clients did not run"; exit 1; }
drill "measured: $summary"
for kind in body headers; do
  open=$(node -e 'console.log(JSON.parse(process.argv[1])[process.argv[2]].stillOpen)' "$summary" "$kind")
  slowest=$(node -e 'console.log(JSON.parse(process.argv[1])[process.argv[2]].cutOffAfterMs?.max ?? 0)' "$summary" "$kind")
  [ "$open" = 0 ] || fail "$open connections stalling in the $kind still open after 40 s"
  [ "$slowest" -le 15000 ] || fail "a connection stalling in the $kind was cut off only after $slowest ms"
done
curl -fsS --max-time 10 "$WEB_URL/api/ready" >/dev/null || fail "the API did not answer after the slow clients"
[ "$DRILL_FAILED" = 0 ] && drill "passed: every slow connection cut off within 15 s, the API answering"
exit "$DRILL_FAILED"
