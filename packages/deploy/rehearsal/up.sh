#!/usr/bin/env bash
# Deploys the production stack of docker-compose.yml with the rehearsal's additions (stack.yml) to a one-node swarm
# on this machine, from the images build-images.sh made, as an operator deploys production (`docker stack deploy`):
# PostgreSQL and its backups, Redis, the release step's migrations, the indexer, two API replicas, Caddy on
# 127.0.0.1:18080 (the web build and /api), the monitoring, and the development chain with every contract deployed
# on 127.0.0.1:48545. Waits until every service is healthy by its own healthcheck, prints how long that took, and
# checks the API through Caddy.
#
#   packages/deploy/rehearsal/up.sh      leaves the stack (and the dockerd it started) running
#   packages/deploy/rehearsal/down.sh    removes the stack and its volumes, and stops that dockerd
#
# Fresh keys and passwords are made on each first start and kept in $ORO_REHEARSAL_DIR (secrets/, keys.env),
# never in the repository.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"

# Where this run's lines of the engine's log begin (the log is kept across runs).
engine_log="$REHEARSAL_DIR/logs/dockerd.log"
engine_log_from=$(($(wc -c <"$engine_log" 2>/dev/null || echo 0) + 1))
ensure_dockerd
ensure_swarm
write_compose_env
# Every image as built: no version a drill of an earlier run deployed.
rm -f "$REHEARSAL_DIR/versions.env"

started=$(date +%s)
log "deploying the stack $STACK"
stack_deploy >"$REHEARSAL_DIR/logs/stack-deploy.log" 2>&1 || { cat "$REHEARSAL_DIR/logs/stack-deploy.log" >&2; exit 1; }
wait_healthy "${ORO_REHEARSAL_UP_TIMEOUT:-480}"
# The payout wallet pays gas for `auto` rewards: 100 ETH from the development chain (hardhat_setBalance).
curl -fsS --max-time 10 -H 'content-type: application/json' "http://127.0.0.1:$(compose_setting CHAIN_PORT)" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"hardhat_setBalance\",\"params\":[\"$(compose_setting PAYOUT_WALLET_ADDRESS)\",\"0x56bc75e2d63100000\"]}" \
  | grep -q '"result":true' || {
  echo "rehearsal: could not fund the payout wallet on the chain" >&2
  # Published ports go through the swarm's ingress network: without it every one resets its connections.
  ingress_failure=$(tail -c "+$engine_log_from" "$engine_log" | grep "Failed creating ingress network" | tail -1 || true)
  if [ -n "$ingress_failure" ]; then
    echo "rehearsal: the engine could not create its ingress network, so no published port answers; its log says:" >&2
    echo "$ingress_failure" >&2
    echo "rehearsal: 'vxlan interface: file exists' is a network namespace another engine left (killed): mount | grep nsfs" >&2
  fi
  exit 1
}
echo "rehearsal: every service healthy in $(($(date +%s) - started)) s"
check_through_caddy
