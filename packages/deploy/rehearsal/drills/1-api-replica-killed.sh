#!/usr/bin/env bash
# Drill 1: one API replica killed (SIGKILL to its Node.js process) under steady GET traffic through Caddy, while
# both replicas' payout workers pay a queue of `auto` referral rewards (40, or as many as the claim contract's ORO
# covers, at least 10), queued by the API's own rehearsal-payouts command, each with a voucher its signer signed.
# Goals: no GET fails (Caddy takes the other replica); every reward paid once: each nonce used on chain, each referee
# holding exactly its reward, one payout transaction per reward from the payout wallet (a job the dead worker held is
# taken over when its lease ends, after the chain is asked, never sent again); the replica replaced (swarm mode starts
# a new task) and healthy by its own healthcheck.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

api_replicas || exit 1
victim=${replicas[0]}
payouts() { "$DOCKER" exec "$1" node scripts/rehearsal-payouts.js "${@:2}"; }
json_field() { node -e 'console.log(JSON.parse(process.argv[1])[process.argv[2]])' "$1" "$2"; }

drill "steady GET traffic through Caddy for 40 s: /api/ready (the database) and /api/streaks/current (the indexer)"
start_traffic "$WEB_URL/api/ready" 40 4 10000 20
ready_out=$TRAFFIC_OUT ready_pid=$TRAFFIC_PID
start_traffic "$WEB_URL/api/streaks/current?userAddress=$PROBE_ADDRESS" 40 2 10000 100
sleep 5
# The payout wallet's transactions so far, and what the claim contract can pay (the report of a batch that does
# not exist): 40 rewards, or as many as its ORO covers.
before=$(payouts "${replicas[1]}" report 0x0000000000000000000000000000000000000000) || { fail "could not ask the chain about the payouts"; exit 1; }
tx_before=$(json_field "$before" payoutWalletTransactionCount)
PAYOUTS=$(node -e 'const r = JSON.parse(process.argv[1]); const n = BigInt(r.claimContractOroWei) / BigInt(r.rewardWei); console.log(String(n < 40n ? n : 40n))' "$before")
[ "$PAYOUTS" -ge 10 ] || { fail "the claim contract holds ORO for only $PAYOUTS rewards"; exit 1; }
queued=$(payouts "${replicas[1]}" queue "$PAYOUTS") || { fail "could not queue the payouts"; exit 1; }
batch=$(json_field "$queued" batch)
drill "queued $PAYOUTS auto referral rewards (batch $batch), paid from $(json_field "$queued" payoutWallet) ($tx_before transactions before)"
# The kill lands while payouts are in flight (once the first is paid); whether the victim's worker held a job shows
# in the time the batch takes to finish (its lease must end first).
batch_rewards="referral_reward r JOIN referral f ON f.id = r.referral_id JOIN \"user\" u ON u.id = f.referrer_id WHERE u.address = '$batch'"
for _ in $(seq 1 300); do
  [ "$(sql "SELECT count(*) FROM $batch_rewards AND r.status = 'paid'")" -gt 0 ] && break
  sleep 0.1
done
pid=$(app_pid "$victim")
in_flight=$(sql "SELECT count(*) FILTER (WHERE r.status = 'paid') || ' paid, ' || count(*) FILTER (WHERE r.locked_until > now()) || ' leased' FROM $batch_rewards")
drill "kill -KILL $pid (the API process of $victim) with the batch at: $in_flight"
killed=$(date +%s%N)
kill -KILL "$pid"
back=$(wait_service_healthy api 180 2 "$victim") || fail "no new replica replaced $victim healthy within 180 s"
drill "$victim replaced: two healthy replicas again $back s after the kill ($(healthy_containers_of api | tr '\n' ' '))"

finish_traffic 2000
streak_failed=$(traffic_field failed)
TRAFFIC_OUT=$ready_out TRAFFIC_PID=$ready_pid
finish_traffic 2000
ready_failed=$(traffic_field failed)

# A job the victim held waits for its lease (PAYOUT_LEASE, 30 s in the rehearsal) before the other worker takes it.
report=""
for _ in $(seq 1 120); do
  report=$(payouts "$(healthy_containers_of api | head -1)" report "$batch") && [ "$(json_field "$report" paid)" = "$PAYOUTS" ] && break
  sleep 2
done
drill "$((($(date +%s%N) - killed) / 1000000000)) s after the kill, the batch: $report"
[ "$(json_field "$report" paid)" = "$PAYOUTS" ] || fail "not every queued reward was paid within 240 s"
[ "$(json_field "$report" nonceUsedOnChain)" = "$PAYOUTS" ] || fail "not every voucher's nonce is used on chain"
[ "$(json_field "$report" refereesHoldingExactlyTheirReward)" = "$PAYOUTS" ] || fail "a referee does not hold exactly its reward"
[ "$(json_field "$report" payoutTransactionsShared)" = 0 ] || fail "two rewards share one payout transaction"
sent=$(($(json_field "$report" payoutWalletTransactionCount) - tx_before))
drill "the payout wallet sent $sent transactions for $PAYOUTS rewards"
[ "$sent" = "$PAYOUTS" ] || fail "the payout wallet sent $sent transactions for $PAYOUTS rewards: a payout was sent twice (or not at all)"

[ "$ready_failed" = 0 ] || fail "$ready_failed GET /api/ready failed while a replica died"
[ "$streak_failed" = 0 ] || fail "$streak_failed GET /api/streaks/current failed while a replica died"
[ "$DRILL_FAILED" = 0 ] && drill "passed: no GET failed, every payout sent once, the replica replaced"
exit "$DRILL_FAILED"
