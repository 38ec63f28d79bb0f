#!/usr/bin/env bash
# Drill 7: slow clients through Caddy (slowloris): 50 connections that send a request's headers and stall in its
# body, and 50 that stall in their headers; then one address holding as many connections as it can (1,000, each
# reopened when cut). Goals: every slow one is cut off within 15 s (Caddy's header and body timeouts, 10 s; the
# API's own body deadline behind it), none holds its socket; the flooding address holds no more than the web
# container's cap per address (CONNECTIONS_PER_ADDRESS, deploy/web-entrypoint.sh) while a client at another address
# is served, and it is served again once it stops. From this machine every connection reaches the container from
# one address, the compose network's gateway (Docker's port proxy); the other address is an API replica's.
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

cap=$("$DOCKER" exec "$(containers_of web | head -1)" printenv CONNECTIONS_PER_ADDRESS) || cap=256
flood_out=$(mktemp)
drill "1,000 connections from this machine's one address for 20 s, the web container's cap being $cap per address"
node "$DRILL_DIR/connection-flood.mjs" 127.0.0.1 "${WEB_URL##*:}" 1000 20 >"$flood_out" &
flood_pid=$!
sleep 8
other=$(containers_of api | head -1)
started=$(date +%s%N)
if "$DOCKER" exec "$other" node -e "fetch('http://web:8080/api/ready', { signal: AbortSignal.timeout(5000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then
  drill "during the flood, another address ($other) got GET /api/ready through Caddy in $((($(date +%s%N) - started) / 1000000)) ms"
else
  fail "during the flood, another address ($other) was not served"
fi
during=$(curl -sS -o /dev/null -w "HTTP %{http_code}" --max-time 5 "$WEB_URL/api/ready" 2>&1 | tr "\n" " " || true)
drill "during the flood, a new request from the flooding address: $during"
wait "$flood_pid"
flood=$(tail -1 "$flood_out")
rm -f "$flood_out"
drill "measured: $flood"
held=$(node -e 'console.log(JSON.parse(process.argv[1]).maxHeldOpen)' "$flood") || held=unknown
[ "$held" != unknown ] && [ "$held" -le "$cap" ] || fail "the flooding address held $held connections, over the cap of $cap"
after=""
for _ in $(seq 1 20); do
  curl -fsS --max-time 5 "$WEB_URL/api/ready" >/dev/null && after=ok && break
  sleep 0.5
done
[ "$after" = ok ] || fail "the flooding address was not served again after it stopped"
[ "$DRILL_FAILED" = 0 ] && drill "passed: every slow connection cut off within 15 s, one address held at most $held connections while another was served"
exit "$DRILL_FAILED"
