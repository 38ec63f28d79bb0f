#!/usr/bin/env bash
# Drill 1: one API replica killed (SIGKILL to its Node.js process) under steady GET traffic through Caddy.
# Goals: no GET fails (Caddy takes the other replica), no payout or voucher doubled, the replica back (restart
# policy) and healthy by its own healthcheck.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

mapfile -t replicas < <(containers_of api)
[ "${#replicas[@]}" -ge 2 ] || { fail "needs two API replicas, found ${#replicas[@]}"; exit 1; }
victim=${replicas[0]}
rewards_before=$(sql "SELECT count(*) || ' rewards, ' || count(DISTINCT voucher_nonce) || ' nonces, ' || count(payout_tx_hash) || ' payouts' FROM referral_reward")
restarts_before=$("$DOCKER" inspect --format '{{.RestartCount}}' "$victim")

drill "steady GET traffic through Caddy for 40 s: /api/ready (the database) and /api/streaks/current (the indexer)"
start_traffic "$WEB_URL/api/ready" 40 4 10000 20
ready_out=$TRAFFIC_OUT ready_pid=$TRAFFIC_PID
start_traffic "$WEB_URL/api/streaks/current?userAddress=$PROBE_ADDRESS" 40 2 10000 100
sleep 10
pid=$(app_pid "$victim")
started_before=$(started_at "$victim")
drill "kill -KILL $pid (the API process of $victim) at 10 s"
killed=$(date +%s%N)
kill -KILL "$pid"
restarted=$(wait_restarted "$victim" "$started_before" 60 "$killed") || fail "$victim was not started again within 60 s"
back=$(wait_container_healthy "$victim" 180) || fail "$victim did not come back healthy within 180 s"
drill "$victim started again by its restart policy ${restarted:-?} ms after the kill (restarts: $restarts_before -> $("$DOCKER" inspect --format '{{.RestartCount}}' "$victim")), healthy $back s later"

finish_traffic 2000
streak_failed=$(traffic_field failed)
TRAFFIC_OUT=$ready_out TRAFFIC_PID=$ready_pid
finish_traffic 2000
ready_failed=$(traffic_field failed)

rewards_after=$(sql "SELECT count(*) || ' rewards, ' || count(DISTINCT voucher_nonce) || ' nonces, ' || count(payout_tx_hash) || ' payouts' FROM referral_reward")
doubled=$(sql "SELECT count(*) FROM (SELECT payout_tx_hash FROM referral_reward WHERE payout_tx_hash IS NOT NULL GROUP BY payout_tx_hash HAVING count(*) > 1) d")
drill "referral rewards before: $rewards_before; after: $rewards_after; payout transactions shared by two rewards: $doubled"

[ "$ready_failed" = 0 ] || fail "$ready_failed GET /api/ready failed while a replica died"
[ "$streak_failed" = 0 ] || fail "$streak_failed GET /api/streaks/current failed while a replica died"
[ "$rewards_before" = "$rewards_after" ] && [ "$doubled" = 0 ] || fail "the rewards changed or a payout was doubled"
[ "$DRILL_FAILED" = 0 ] && drill "passed: no GET failed, nothing paid twice, the replica is back"
exit "$DRILL_FAILED"
