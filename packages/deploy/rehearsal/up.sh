#!/usr/bin/env bash
# Runs the production stack of docker-compose.yml under its rehearsal profile on this machine, from the images
# build-images.sh made: PostgreSQL, Redis, the indexer on PostgreSQL, two API replicas, Caddy (the web build and
# /api) on 127.0.0.1:18080, and the development chain with every contract deployed on 127.0.0.1:48545. Waits until
# every service is healthy by its own healthcheck, prints how long that took, and checks the API through Caddy.
#
#   packages/deploy/rehearsal/up.sh      leaves the stack (and the dockerd it started) running
#   packages/deploy/rehearsal/down.sh    stops both and removes the stack's volumes
#
# Fresh keys (voucher signer, World ID signer) and a fresh database password are made on each first start and
# kept in $ORO_REHEARSAL_DIR/compose.env (never in the repository). Compose v1 (docker-compose 1.29) runs it, with
# --compatibility so that `deploy.replicas` counts.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"

ensure_dockerd
write_compose_env

started=$(date +%s)
log "starting the stack (project $COMPOSE_PROJECT)"
compose up -d --no-build >"$REHEARSAL_DIR/logs/compose-up.log" 2>&1 || { cat "$REHEARSAL_DIR/logs/compose-up.log" >&2; exit 1; }
wait_healthy "${ORO_REHEARSAL_UP_TIMEOUT:-420}"
# The payout wallet pays gas for `auto` rewards: 100 ETH from the development chain (hardhat_setBalance).
curl -fsS --max-time 10 -H 'content-type: application/json' "http://127.0.0.1:$(compose_setting CHAIN_PORT)" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"hardhat_setBalance\",\"params\":[\"$(compose_setting PAYOUT_WALLET_ADDRESS)\",\"0x56bc75e2d63100000\"]}" \
  | grep -q '"result":true' || { echo "rehearsal: could not fund the payout wallet on the chain" >&2; exit 1; }
echo "rehearsal: every service healthy in $(($(date +%s) - started)) s"
check_through_caddy
