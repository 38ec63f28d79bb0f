#!/usr/bin/env bash
# Drill 3: PostgreSQL restarted under traffic through Caddy. Goals: while it is down the API answers 503 quickly
# (well within 5 s), it recovers by itself (both replicas ready again, nobody restarts them), and nothing written
# before the restart is lost.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

postgres=$(containers_of postgres | head -1)
marker="drill-3-$(date +%s)"
sql "INSERT INTO setting (key, value) VALUES ('$marker', 'written before the restart')" >/dev/null
# Which rows exist (the workers may update some meanwhile; a reminder may be added, so not notification_job).
before=$(data_fingerprint keys | grep -v '^notification_job ')
mapfile -t replicas < <(containers_of api)
restarts_before=$(for r in "${replicas[@]}"; do "$DOCKER" inspect --format '{{.RestartCount}}' "$r"; done | tr '\n' ' ')

drill "steady GET /api/ready through Caddy for 60 s; PostgreSQL restarted at 10 s (docker restart, a clean shutdown)"
start_traffic "$WEB_URL/api/ready" 60 4 10000 20
sleep 10
down_at=$(date +%s)
"$DOCKER" restart -t 30 "$postgres" >/dev/null
drill "$postgres restarted in $(($(date +%s) - down_at)) s; healthy $(wait_container_healthy "$postgres" 120) s later"
# The API by itself: both replicas answer /api/ready again through Caddy, without a restart.
recovered=""
for _ in $(seq 1 60); do
  if curl -fsS --max-time 5 "$WEB_URL/api/ready" >/dev/null 2>&1; then recovered=$(($(date +%s) - down_at)); break; fi
  sleep 1
done
[ -n "$recovered" ] && drill "the API ready again through Caddy $recovered s after the restart began" || fail "the API did not recover within 60 s"
finish_traffic 5000
slow_503=$(node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").at(-1)); console.log(s.perSecond.filter((x) => x.failed > 0 && x.maxMs > 5000).length)' "$TRAFFIC_OUT")
other=$(node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").at(-1)); console.log(Object.entries(s.byStatus).filter(([k]) => k !== "200" && k !== "503").map(([k, v]) => k + ": " + v).join(", "))' "$TRAFFIC_OUT")
drill "503 answers: $(traffic_field 'byStatus["503"]'); other failures: ${other:-none}"
restarts_after=$(for r in "${replicas[@]}"; do "$DOCKER" inspect --format '{{.RestartCount}}' "$r"; done | tr '\n' ' ')
drill "API replicas' restart counts: before $restarts_before, after $restarts_after"

after=$(data_fingerprint keys | grep -v '^notification_job ')
kept=$(sql "SELECT value FROM setting WHERE key = '$marker'")
sql "DELETE FROM setting WHERE key = '$marker'" >/dev/null
echo "$after" | sed 's/^/drill:   after: /'
[ "$kept" = "written before the restart" ] || fail "the row written before the restart is gone"
[ "$before" = "$after" ] || { fail "rows came or went across the restart"; echo "$before" | sed 's/^/drill:   before: /'; }
[ "$slow_503" = 0 ] || fail "$slow_503 seconds had a failed answer that took over 5 s"
[ -z "$other" ] || fail "answers other than 200 and 503: $other"
[ "$restarts_before" = "$restarts_after" ] || fail "an API replica had to restart"
[ "$DRILL_FAILED" = 0 ] && drill "passed: quick 503s while down, recovered by itself, nothing lost"
exit "$DRILL_FAILED"
