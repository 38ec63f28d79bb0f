#!/usr/bin/env bash
# Drill 13: deploys of the API with the one command an operator runs (`docker stack deploy`, the new image named by
# API_VERSION), under steady GET traffic through Caddy. First a build that never becomes ready (its server answers
# 503 to everything, its healthcheck /api/live among them): swarm mode starts one new replica beside the old ones
# (update order start-first), which never passes its healthcheck, so it never enters Docker's DNS and gets no traffic; once its start period is over the
# update fails and rolls back by itself (failure_action rollback). Then a good build: the replicas are replaced one
# at a time, each new one kept only once healthy.
# Goals: the bad deploy ends rolled back with the old replicas serving, the good one completes; 0 failed requests
# throughout both; the release step (migrate) ran for each.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

api_replicas || exit 1
service="${STACK}_api"
prefix=${ORO_IMAGE_PREFIX:-oro}
current=$("$DOCKER" service inspect --format '{{.Spec.TaskTemplate.ContainerSpec.Image}}' "$service")
update_state() { "$DOCKER" service inspect --format '{{if .UpdateStatus}}{{.UpdateStatus.State}}{{end}}' "$service"; }
# Waits (up to $1 s) for the update to end in one of the states given; prints "<state> <seconds>".
wait_update() {
  local timeout=$1 started state
  shift
  started=$(date +%s)
  while :; do
    state=$(update_state)
    for wanted in "$@"; do [ "$state" = "$wanted" ] && { echo "$state $(($(date +%s) - started))"; return 0; }; done
    [ "$(($(date +%s) - started))" -lt "$timeout" ] || { echo "${state:-none} never"; return 1; }
    sleep 2
  done
}

# A build that fails its readiness: the API image whose server answers every request with 503.
printf '%s\n' "FROM ${current%@*}" \
  "CMD [\"node\", \"-e\", \"require('node:http').createServer((q, s) => { s.statusCode = 503; s.end('{\\\"error\\\":\\\"NOT_READY\\\"}'); }).listen(3001)\"]" |
  "$DOCKER" build -q -t "$prefix-api:not-ready" - >/dev/null || { fail "could not build the not-ready image"; exit 1; }
"$DOCKER" tag "${current%@*}" "$prefix-api:next"

drill "steady GETs through Caddy (/api/ready and a streak read) during both deploys"
start_traffic "$WEB_URL/api/ready" 600 2 10000 100
ready_out=$TRAFFIC_OUT ready_pid=$TRAFFIC_PID
start_traffic "$WEB_URL/api/streaks/current?userAddress=$PROBE_ADDRESS" 600 1 10000 200
streak_out=$TRAFFIC_OUT streak_pid=$TRAFFIC_PID

drill "API_VERSION=not-ready docker stack deploy (the build that answers 503 to everything, its healthcheck /api/live among them)"
echo "API_VERSION=not-ready" >"$REHEARSAL_DIR/versions.env"
stack_deploy >"$REHEARSAL_DIR/logs/deploy-not-ready.log" 2>&1 || { fail "stack deploy refused"; cat "$REHEARSAL_DIR/logs/deploy-not-ready.log" >&2; }
outcome=$(wait_update 300 rollback_completed completed rollback_paused paused) || true
drill "the deploy ended: $outcome (s after the command); the service runs $("$DOCKER" service inspect --format '{{.Spec.TaskTemplate.ContainerSpec.Image}}' "$service")"
[ "${outcome%% *}" = rollback_completed ] || fail "the deploy of a build that is never ready was not rolled back (state ${outcome%% *})"
served_by_bad=$("$DOCKER" ps -a --filter "label=com.docker.swarm.service.name=$service" --filter "ancestor=$prefix-api:not-ready" -q | wc -l)
drill "containers of the not-ready build started: $served_by_bad (none left running: $("$DOCKER" ps --filter "label=com.docker.swarm.service.name=$service" --filter "ancestor=$prefix-api:not-ready" -q | wc -l))"
[ "$served_by_bad" -ge 1 ] || fail "swarm never started the not-ready build: the drill did not deploy it"
back=$(wait_service_healthy api 120 2) || fail "two healthy replicas of the old build were not there after the rollback"

drill "API_VERSION=next docker stack deploy (a good build)"
echo "API_VERSION=next" >"$REHEARSAL_DIR/versions.env"
stack_deploy >"$REHEARSAL_DIR/logs/deploy-next.log" 2>&1 || { fail "stack deploy refused"; cat "$REHEARSAL_DIR/logs/deploy-next.log" >&2; }
outcome=$(wait_update 400 completed rollback_completed paused rollback_paused) || true
drill "the deploy ended: $outcome (s after the command)"
[ "${outcome%% *}" = completed ] || fail "the deploy of a good build did not complete (state ${outcome%% *})"
back=$(wait_service_healthy api 120 2) || fail "two healthy replicas of the new build were not there after the update"
running=$("$DOCKER" ps --filter "label=com.docker.swarm.service.name=$service" --format '{{.Image}}' | sort | uniq -c | tr -s ' ' | tr '\n' ';')
drill "replicas now: $running"
migrations=$("$DOCKER" ps -a --filter "label=com.docker.swarm.service.name=${STACK}_migrate" --format '{{.Image}} {{.Status}}' | tr '\n' ';')
drill "the release step's runs: $migrations"

kill -TERM "$ready_pid" "$streak_pid" 2>/dev/null
for out in "$ready_out" "$streak_out"; do
  TRAFFIC_OUT=$out TRAFFIC_PID=
  wait
  finish_traffic 3000
  [ "$(traffic_field failed)" = 0 ] || fail "$(traffic_field failed) requests failed during the deploys"
done
[ "$DRILL_FAILED" = 0 ] && drill "passed: the not-ready build rolled back by itself, the good one rolled out, no request failed"
exit "$DRILL_FAILED"
