#!/usr/bin/env bash
# Drill 9: the monitoring profile as an operator starts it (docker-compose.yml's prometheus, deploy/prometheus).
# Goals: Prometheus scrapes every API replica (found through Docker's DNS) and the indexer, each target up; it has
# loaded every alert rule of deploy/prometheus/alerts.yml; and what it stored from the replicas can be queried (each
# replica's rate-limit store gauge, and request counts by route). The alerts firing now are printed, not judged: a
# rehearsal's chain and wallets are not production's.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

api_replicas || exit 1
PROMETHEUS_URL="http://127.0.0.1:$(compose_setting PROMETHEUS_PORT)"
# A path of Prometheus's HTTP API, its `data` printed as JSON.
prometheus() { curl -fsS --max-time 10 "$PROMETHEUS_URL/api/v1/$1" | node -e 'let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => { const a = JSON.parse(t); if (a.status !== "success") process.exit(1); console.log(JSON.stringify(a.data)); })'; }
# Fields of JSON on stdin, by a JavaScript expression over `d`.
pick() { node -e 'let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => { const d = JSON.parse(t); console.log(eval(process.argv[1])); })' "$1"; }

drill "Prometheus at $PROMETHEUS_URL: waiting up to 90 s for ${#replicas[@]} API replicas and the indexer, scraped and up"
targets=""
for _ in $(seq 1 90); do
  targets=$(prometheus targets) || { sleep 1; continue; }
  up=$(pick 'd.activeTargets.filter((t) => t.health === "up").map((t) => t.labels.job).sort().join(" ")' <<<"$targets")
  [ "$up" = "$(printf 'api %.0s' "${replicas[@]}")indexer" ] && break
  sleep 1
done
drill "targets: $(pick 'd.activeTargets.map((t) => `${t.labels.job} ${t.labels.instance} ${t.health}${t.lastError ? ` (${t.lastError})` : ""}`).join("; ")' <<<"$targets")"
[ "${up:-}" = "$(printf 'api %.0s' "${replicas[@]}")indexer" ] || fail "not every API replica and the indexer is scraped and up: up are [${up:-none}]"

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
drill "alerts firing now: $(prometheus alerts | pick 'd.alerts.filter((a) => a.state === "firing").map((a) => a.labels.alertname).join(", ") || "none"')"
[ "$DRILL_FAILED" = 0 ]
