#!/usr/bin/env bash
# Drill 9: the monitoring as the stack runs it (docker-compose.yml's prometheus and exporters, deploy/prometheus).
# Goals: Prometheus scrapes every API replica (found through Docker's DNS), the indexer, Caddy's access-log counters,
# PostgreSQL, Redis, the host, Alertmanager and itself, each target up; it has loaded every alert rule of
# deploy/prometheus/alerts.yml; what it stored can be queried (each replica's rate-limit store gauge, request
# counts by route, Caddy's answers by status, PostgreSQL and Redis up, the disk, the last backup's time); the alerts
# on the data (PostgresDown, RedisDown, BackupTooOld) are not pending or firing, and DiskSpaceLow is exactly when the
# machine has under 15% free. The other alerts firing now are printed, not judged: a rehearsal's chain and wallets
# are not production's.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

api_replicas || exit 1
PROMETHEUS_URL="http://prometheus:9090"
# A path of Prometheus's HTTP API (asked from inside the stack: it publishes no port), its `data` printed as JSON.
prometheus() { in_stack_get "$PROMETHEUS_URL/api/v1/$1" | node -e 'let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => { const a = JSON.parse(t); if (a.status !== "success") process.exit(1); console.log(JSON.stringify(a.data)); })'; }
# Fields of JSON on stdin, by a JavaScript expression over `d`.
pick() { node -e 'let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => { const d = JSON.parse(t); console.log(eval(process.argv[1])); })' "$1"; }

expected_up="alertmanager $(printf 'api %.0s' "${replicas[@]}")caddy indexer node postgres prometheus redis"
drill "Prometheus at $PROMETHEUS_URL: waiting up to 90 s for every target up: $expected_up"
targets=""
for _ in $(seq 1 90); do
  targets=$(prometheus targets) || { sleep 1; continue; }
  up=$(pick 'd.activeTargets.filter((t) => t.health === "up").map((t) => t.labels.job).sort().join(" ")' <<<"$targets")
  [ "$up" = "$expected_up" ] && break
  sleep 1
done
drill "targets: $(pick 'd.activeTargets.map((t) => `${t.labels.job} ${t.labels.instance} ${t.health}${t.lastError ? ` (${t.lastError})` : ""}`).join("; ")' <<<"$targets")"
[ "${up:-}" = "$expected_up" ] || fail "not every target is scraped and up: up are [${up:-none}]"

expected_rules=$(grep -c '^ *- alert:' "$REPO_ROOT/deploy/prometheus/alerts.yml")
rules=$(prometheus rules | pick 'd.groups.flatMap((g) => g.rules).filter((r) => r.type === "alerting").length') || rules=0
drill "alert rules loaded: $rules (deploy/prometheus/alerts.yml has $expected_rules)"
[ "$rules" = "$expected_rules" ] || fail "Prometheus loaded $rules alert rules, not $expected_rules"

# Each replica's own series, as stored: the rate-limit store counting in Redis, and the requests it answered.
for _ in $(seq 1 30); do
  store=$(prometheus 'query?query=oro_api_rate_limit_store_up' | pick 'd.result.map((r) => r.value[1]).join(" ")')
  [ "$store" = "$(printf '1 %.0s' "${replicas[@]}" | sed 's/ $//')" ] && break
  sleep 1
done
drill "oro_api_rate_limit_store_up by replica: ${store:-none}"
[ "${store:-}" = "$(printf '1 %.0s' "${replicas[@]}" | sed 's/ $//')" ] || fail "not every replica's rate-limit store reads 1 in Prometheus"
answered=$(prometheus 'query?query=sum%20by%20(instance)%20(oro_api_http_requests_total)' | pick 'd.result.map((r) => `${r.metric.instance} ${r.value[1]}`).join("; ")')
drill "requests answered so far, by replica: ${answered:-none}"
[ "$(wc -w <<<"${answered//;/}")" -ge $((2 * ${#replicas[@]})) ] || fail "Prometheus holds no request counts for every replica"
for query in 'sum by (code) (caddy_responses_total)' pg_up redis_up 'node_filesystem_avail_bytes{mountpoint="/"}' oro_backup_last_success_timestamp_seconds; do
  result=$(prometheus "query?query=$(node -e 'console.log(encodeURIComponent(process.argv[1]))' "$query")" | pick 'd.result.map((r) => `${JSON.stringify(r.metric)} ${r.value[1]}`).join("; ")')
  drill "$query: ${result:-nothing}"
  [ -n "$result" ] || fail "Prometheus holds nothing for $query"
done
# One read of the alerts for every judgement below: they describe the same moment.
alerts=$(prometheus alerts) || fail "Prometheus did not answer for its alerts"
quiet=$(printf '%s' "$alerts" | pick 'd.alerts.filter((a) => ["PostgresDown", "RedisDown", "BackupTooOld", "ScrapeTargetDown", "ScrapeTargetMissing"].includes(a.labels.alertname)).map((a) => `${a.labels.alertname} ${a.state}`).join(", ")')
[ -z "$quiet" ] || fail "alerts on the stack's own health are pending or firing: $quiet"
# The disk is the rehearsal machine's (the stack adds ~1 GB to it), so DiskSpaceLow is judged against what the
# machine has: pending or firing exactly when a filesystem the rule watches has less than 15% free, as measured by
# the same series. A CI machine short of disk is said, not failed; the rule silent on it, or firing without it, fails.
free=$(prometheus "query?query=$(node -e 'console.log(encodeURIComponent(process.argv[1]))' 'min(node_filesystem_avail_bytes{fstype!~"tmpfs|overlay"} / node_filesystem_size_bytes{fstype!~"tmpfs|overlay"})')" | pick 'd.result.map((r) => r.value[1]).join("")')
disk_alert=$(printf '%s' "$alerts" | pick 'd.alerts.filter((a) => a.labels.alertname === "DiskSpaceLow").map((a) => a.state).sort().filter((s, i, all) => all.indexOf(s) === i).join(" ")')
# 1 under 14.5% free, 0 over 15.5%, "edge" between (the disk moves between the rule's evaluation and this query).
low=$(node -e 'const f = Number(process.argv[1]); console.log(f < 0.145 ? 1 : f > 0.155 ? 0 : "edge")' "${free:-NaN}")
drill "the least free of the machine's filesystems: $(node -e 'console.log((Number(process.argv[1]) * 100).toFixed(1))' "${free:-NaN}")% free; DiskSpaceLow: ${disk_alert:-not pending or firing}"
if [ -z "$free" ]; then
  fail "Prometheus holds no free-space figure for the machine's filesystems"
elif [ "$low" = 1 ]; then
  [ -n "$disk_alert" ] || fail "a filesystem has less than 15% free, and DiskSpaceLow is neither pending nor firing"
  drill "THIS MACHINE IS SHORT OF DISK (under 15% free): DiskSpaceLow is ${disk_alert}, as it should be"
elif [ "$low" = 0 ]; then
  [ -z "$disk_alert" ] || fail "DiskSpaceLow is $disk_alert with every filesystem at 15% free or more"
fi
drill "alerts firing now: $(printf '%s' "$alerts" | pick 'd.alerts.filter((a) => a.state === "firing").map((a) => a.labels.alertname).join(", ") || "none"')"
[ "$DRILL_FAILED" = 0 ]
