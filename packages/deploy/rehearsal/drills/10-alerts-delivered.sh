#!/usr/bin/env bash
# Drill 10: alerts reach someone. The stack's Alertmanager sends to the rehearsal's webhook sink (stack.yml's
# alert-sink, standing in for the operator's pager and the dead man's switch). One API replica is killed (SIGKILL)
# and so is each replacement swarm mode starts, for as long as it takes (a replica in a crash loop: one killed once is
# back within seconds, which pages nobody); then the killing stops.
# Goals: the Watchdog keeps arriving at the dead man's switch (at least twice, never more than 90 s apart); ApiReplicaDown
# ("fewer than two API replicas answer") arrives firing within 180 s of the first kill (Prometheus's 15 s scrape and
# evaluation, the rule's 1 minute, Alertmanager's 10 s group wait), and resolved within 180 s of two replicas being
# healthy again.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

FIRING_WITHIN=180
RESOLVED_WITHIN=180
api_replicas || exit 1
survivor=${replicas[1]}
# The sink's webhooks as "arrival-ms path status alertname" lines, asked from the survivor while the others are being
# killed, else from any API container running (a loaded machine's healthcheck may have replaced the survivor since).
received() {
  local from=$survivor
  [ "$("$DOCKER" inspect --format '{{.State.Running}}' "$from" 2>/dev/null)" = true ] || from=$(containers_of api | head -1)
  "$DOCKER" exec "$from" node -e '
    fetch("http://alert-sink:9095/received").then((r) => r.json()).then((all) => {
      for (const { at, path, body } of all) for (const alert of body.alerts ?? []) console.log(at, path, alert.status, alert.labels.alertname);
    }, (e) => { console.error(e.message); process.exit(1); })'
}

firing_before=$(received | awk '$2 == "/operator" && $3 == "firing" && $4 == "ApiReplicaDown"' | wc -l)

killed=$(date +%s)
kill_ms=$(date +%s%N | cut -c1-13)
drill "kill -KILL the API in ${replicas[0]}, and every replacement swarm starts, until the alert arrives (at most $FIRING_WITHIN s)"
kill -KILL "$(app_pid "${replicas[0]}")"
fired=""
while [ -z "$fired" ] && [ "$(($(date +%s) - killed))" -le "$FIRING_WITHIN" ]; do
  for container in $(containers_of api); do
    [ "$container" = "$survivor" ] || "$DOCKER" kill -s KILL "$container" >/dev/null 2>&1 || true
  done
  if [ "$(received | awk '$2 == "/operator" && $3 == "firing" && $4 == "ApiReplicaDown"' | wc -l)" -gt "$firing_before" ]; then
    fired=$(($(date +%s) - killed))
  fi
  sleep 2
done
[ -n "$fired" ] && drill "ApiReplicaDown arrived at the operator's webhook, firing, $fired s after the first kill" ||
  fail "ApiReplicaDown did not arrive firing within $FIRING_WITHIN s"

back=$(wait_service_healthy api 180 2) || fail "two healthy API replicas did not come back within 180 s of the last kill"
back_at=$(date +%s)
drill "the killing stopped: two healthy replicas again $back s later"
resolved=""
while [ -z "$resolved" ] && [ "$(($(date +%s) - back_at))" -le "$RESOLVED_WITHIN" ]; do
  received | awk -v since="$kill_ms" '$1 > since && $2 == "/operator" && $3 == "resolved" && $4 == "ApiReplicaDown"' | grep -q . && resolved=$(($(date +%s) - back_at))
  sleep 3
done
[ -n "$resolved" ] && drill "ApiReplicaDown arrived resolved $resolved s after two replicas were healthy again" ||
  fail "ApiReplicaDown did not arrive resolved within $RESOLVED_WITHIN s"
# The Watchdog last: the stack may have been up for less than a minute of Alertmanager's repeats when the drill began
# (the journeys and the drills before take about 2 minutes); by now it has been up for minutes more. It is due every
# minute (alertmanager.yml: a 45 s repeat checked every 15 s); the drill waits for the second arrival at most
# WATCHDOG_WITHIN s after the first, and fails on any gap longer (a 1 minute repeat checked every minute came every 2).
WATCHDOG_WITHIN=90
watchdog_arrivals() { received | awk '$2 == "/deadmans-switch" && $4 == "Watchdog" { print $1 }'; }
first=$(watchdog_arrivals | head -1)
while [ -n "$first" ] && [ "$(watchdog_arrivals | wc -l)" -lt 2 ] &&
  [ "$(($(date +%s%N | cut -c1-13) - first))" -le "$((WATCHDOG_WITHIN * 1000))" ]; do
  sleep 3
done
arrivals=$(watchdog_arrivals)
watchdogs=$(printf '%s\n' "$arrivals" | grep -c .)
gaps=$(printf '%s\n' "$arrivals" | awk 'NR > 1 { printf "%s%d", sep, ($1 - last) / 1000; sep = " " } { last = $1 }')
drill "the dead man's switch has received the Watchdog $watchdogs times; seconds between arrivals: ${gaps:-none}"
[ "$watchdogs" -ge 2 ] || fail "the Watchdog reached the dead man's switch $watchdogs times (at least 2 expected, the second within $WATCHDOG_WITHIN s of the first)"
for gap in $gaps; do
  [ "$gap" -le "$WATCHDOG_WITHIN" ] || fail "the Watchdog stopped for $gap s between two arrivals (at most $WATCHDOG_WITHIN s expected)"
done
[ "$DRILL_FAILED" = 0 ] && drill "passed: the watchdog arrives, a replica down is delivered firing and then resolved"
exit "$DRILL_FAILED"
