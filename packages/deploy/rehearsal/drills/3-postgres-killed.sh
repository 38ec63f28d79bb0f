#!/usr/bin/env bash
# Drill 3: PostgreSQL killed with writes in flight: SIGKILL to every process of its container (as a power cut or an
# out-of-memory kill would), while new users sign in and record their claim reminders through Caddy, four at a time,
# and a batch of referrals with signed vouchers is being written (the API's rehearsal-payouts command). Swarm mode
# starts a new PostgreSQL on the same volume, which recovers from its write-ahead log. Goals: every write the API
# acknowledged (a 200: the user, the reminder; a batch the command reported) is there after recovery; while it is
# down the API answers 503 quickly (well within 5 s); it recovers by itself (both replicas ready again, none
# replaced).
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

api_replicas || exit 1
postgres=$(containers_of postgres | head -1)
acknowledged=$(mktemp)
writer_out=$(mktemp)
batches=$(mktemp)
trap 'rm -f "$acknowledged" "$writer_out" "$batches"' EXIT
domain=$(compose_setting SIWE_DOMAINS | cut -d, -f1)
rpc="http://127.0.0.1:$(compose_setting CHAIN_PORT)"

drill "for 60 s through Caddy: new users sign in and record their reminders (4 at a time), GET /api/ready; batches of 3 referrals with vouchers written in a replica; PostgreSQL killed at 15 s"
node "$DRILL_DIR/acknowledged-writes.mjs" "$WEB_URL" "$domain" "$rpc" 60 4 "$acknowledged" >"$writer_out" 2>&1 &
writer=$!
start_traffic "$WEB_URL/api/ready" 60 2 10000 50
(
  end=$(($(date +%s) + 60))
  while [ "$(date +%s)" -lt "$end" ]; do
    # A batch is acknowledged once the command prints it (its transaction committed).
    "$DOCKER" exec "${replicas[1]}" node scripts/rehearsal-payouts.js queue 3 2>/dev/null | sed -n 's/.*"batch":"\(0x[0-9a-f]*\)".*/\1/p' >>"$batches"
    sleep 1
  done
) &
queuer=$!
sleep 15
killed_at=$(date +%s)
drill "docker kill -s KILL $postgres (every process of it, the server and its backends) with $(wc -l <"$acknowledged") writes acknowledged so far"
"$DOCKER" kill -s KILL "$postgres" >/dev/null || fail "could not kill $postgres"
back=$(wait_service_healthy postgres 120 1 "$postgres") || fail "no new PostgreSQL became healthy within 120 s"
recovery=$("$DOCKER" logs "$(containers_of postgres | head -1)" 2>&1 | grep -m1 -E 'database system was interrupted|redo done|automatic recovery' || true)
drill "a new PostgreSQL on the same volume healthy $back s after the kill; its log: ${recovery:-no recovery line}"
recovered=""
for _ in $(seq 1 60); do
  if curl -fsS --max-time 5 "$WEB_URL/api/ready" >/dev/null 2>&1; then recovered=$(($(date +%s) - killed_at)); break; fi
  sleep 1
done
[ -n "$recovered" ] && drill "the API ready again through Caddy $recovered s after the kill" || fail "the API did not recover within 60 s"

wait "$writer"
wait "$queuer"
drill "writes: $(tail -1 "$writer_out"); voucher batches acknowledged: $(grep -c . "$batches")"
finish_traffic 5000
slow_failures=$(node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").at(-1)); console.log(s.perSecond.filter((x) => x.failed > 0 && x.maxMs > 5000).length)' "$TRAFFIC_OUT")
other=$(node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").at(-1)); console.log(Object.entries(s.byStatus).filter(([k]) => k !== "200" && k !== "503").map(([k, v]) => k + ": " + v).join(", "))' "$TRAFFIC_OUT")
drill "GET /api/ready: 503 answers $(traffic_field 'byStatus["503"]'); other failures: ${other:-none}"

# Every acknowledged write, looked up after recovery.
users=$(grep '"write":"user"' "$acknowledged" | sed 's/.*"address":"\(0x[0-9a-f]*\)".*/\1/' | sort -u)
reminders=$(grep '"write":"reminder"' "$acknowledged" | sed 's/.*"address":"\(0x[0-9a-f]*\)".*/\1/' | sort -u)
in_list() { sed "s/.*/'&'/" | paste -sd, -; }
found_users=$(sql "SELECT count(DISTINCT address) FROM \"user\" WHERE address IN ($(in_list <<<"$users"))")
found_reminders=$(sql "SELECT count(DISTINCT address) FROM notification_job WHERE kind = 'oro_claim' AND address IN ($(in_list <<<"$reminders"))")
batch_count=$(grep -c . "$batches")
found_batches=0
if [ "$batch_count" -gt 0 ]; then
  found_batches=$(sql "SELECT count(*) FROM \"user\" u WHERE u.address IN ($(in_list <"$batches")) AND (SELECT count(*) FROM referral f JOIN referral_reward r ON r.referral_id = f.id WHERE f.referrer_id = u.id) = 3")
fi
drill "after recovery: users $found_users of $(grep -c . <<<"$users") acknowledged, reminders $found_reminders of $(grep -c . <<<"$reminders"), voucher batches (3 referrals and rewards each) $found_batches of $batch_count"
[ "$(grep -c . <<<"$users")" -gt 0 ] && [ "$(grep -c . <<<"$reminders")" -gt 0 ] || fail "nothing was acknowledged: the drill wrote nothing"
[ "$found_users" = "$(grep -c . <<<"$users")" ] || fail "an acknowledged sign-in's user is gone"
[ "$found_reminders" = "$(grep -c . <<<"$reminders")" ] || fail "an acknowledged reminder is gone"
[ "$found_batches" = "$batch_count" ] || fail "an acknowledged batch of referrals and vouchers is gone"
[ "$slow_failures" = 0 ] || fail "$slow_failures seconds had a failed answer that took over 5 s"
[ -z "$other" ] || fail "answers other than 200 and 503: $other"
for replica in "${replicas[@]}"; do
  [ "$("$DOCKER" inspect --format '{{.State.Running}}' "$replica")" = true ] || fail "API replica $replica did not survive"
done
[ "$DRILL_FAILED" = 0 ] && drill "passed: every acknowledged write kept across the kill, quick 503s while down, recovered by itself"
exit "$DRILL_FAILED"
