# Sourced after lib.sh: the rehearsal's stack (docker-compose.yml and stack.yml, deployed with Docker's swarm mode)
# and what the scripts ask of it.
STACK=oro-rehearsal
COMPOSE_PROJECT=$STACK
COMPOSE_ENV="$REHEARSAL_DIR/compose.env"
STACK_FILES=(-c "$REPO_ROOT/docker-compose.yml" -c "$REHEARSAL_LIB_DIR/stack.yml")
# Services that run all the time, with their replicas (migrate runs once and exits).
EXPECTED_SERVICES="postgres:1 backup:1 redis:1 indexer:1 api:2 web:1 caddy-log-exporter:1 prometheus:1 alertmanager:1
  postgres-exporter:1 redis-exporter:1 node-exporter:1 chain:1 alert-sink:1 lb:1"

# A one-node swarm on this engine, its addresses out of other engines' way (lib.sh's pools), its ports configurable.
ensure_swarm() {
  [ "$("$DOCKER" info --format '{{.Swarm.LocalNodeState}}')" = active ] && return 0
  "$DOCKER" swarm init --advertise-addr "127.0.0.1:${ORO_REHEARSAL_SWARM_PORT:-23377}" \
    --listen-addr "127.0.0.1:${ORO_REHEARSAL_SWARM_PORT:-23377}" --data-path-port "${ORO_REHEARSAL_DATA_PORT:-23789}" \
    --default-addr-pool "${ORO_REHEARSAL_SWARM_POOL:-10.232.0.0/16}" >"$REHEARSAL_DIR/logs/swarm-init.log" 2>&1 ||
    { cat "$REHEARSAL_DIR/logs/swarm-init.log" >&2; return 1; }
  log "this engine is a one-node swarm now"
}

# The rehearsal's secrets (made once per rehearsal directory, kept; files as the compose file's secrets expect) and
# its settings: rehearsal.env, where the secrets are, and the public halves of the keys.
write_compose_env() {
  local secrets="$REHEARSAL_DIR/secrets"
  if [ ! -s "$secrets/claim_signer_key" ] || [ ! -s "$REHEARSAL_DIR/keys.env" ]; then
    rm -rf "$secrets" && mkdir -p "$secrets" && chmod 700 "$secrets"
    # Made inside the API image (viem is there), so that nothing on the machine needs installing.
    "$DOCKER" run --rm --network none -w /app "${ORO_IMAGE_PREFIX:-oro}-api:${ORO_VERSION:-latest}" node --input-type=module -e '
      import { randomBytes } from "node:crypto";
      import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
      const signer = generatePrivateKey(), payoutWallet = generatePrivateKey(), worldIdSigner = generatePrivateKey();
      console.log(`POSTGRES_PASSWORD=${randomBytes(16).toString("hex")}`);
      console.log(`REDIS_PASSWORD=${randomBytes(16).toString("hex")}`);
      console.log(`CLAIM_SIGNER_PRIVATE_KEY=${signer}`);
      console.log(`CLAIM_SIGNER_ADDRESS=${privateKeyToAccount(signer).address}`);
      // The payout wallet of `auto` rewards (drill 1 queues some); up.sh gives it ETH on the chain.
      console.log(`PAYOUT_WALLET_PRIVATE_KEY=${payoutWallet}`);
      console.log(`PAYOUT_WALLET_ADDRESS=${privateKeyToAccount(payoutWallet).address}`);
      console.log(`WORLD_ID_SIGNING_KEY=${worldIdSigner}`);
      // Not a setting of the stack: the simulator of the journeys checks World ID requests against this address.
      console.log(`WORLD_ID_SIGNER_ADDRESS=${privateKeyToAccount(worldIdSigner).address}`);
    ' >"$REHEARSAL_DIR/keys.env.new"
    mv "$REHEARSAL_DIR/keys.env.new" "$REHEARSAL_DIR/keys.env"
    chmod 600 "$REHEARSAL_DIR/keys.env"
    local key
    key() { sed -n "s/^$1=//p" "$REHEARSAL_DIR/keys.env"; }
    umask 077
    key POSTGRES_PASSWORD >"$secrets/postgres_password"
    echo "postgresql://oro:$(key POSTGRES_PASSWORD)@postgres:5432/oro" >"$secrets/database_url"
    key REDIS_PASSWORD >"$secrets/redis_password"
    echo "redis://:$(key REDIS_PASSWORD)@redis:6379" >"$secrets/redis_url"
    echo "http://chain:8545" >"$secrets/rpc_url"
    key CLAIM_SIGNER_PRIVATE_KEY >"$secrets/claim_signer_key"
    key PAYOUT_WALLET_PRIVATE_KEY >"$secrets/payout_wallet_key"
    key WORLD_ID_SIGNING_KEY >"$secrets/world_id_signing_key"
    echo >"$secrets/world_app_api_key"
    echo >"$secrets/price_api_key"
    echo "http://alert-sink:9095/operator" >"$secrets/alert_webhook_url"
    echo "http://alert-sink:9095/deadmans-switch" >"$secrets/deadmans_switch_url"
    umask 022
  fi
  { cat "$REHEARSAL_LIB_DIR/rehearsal.env"
    echo "ORO_SECRETS_DIR=$secrets"
    grep -E '^(CLAIM_SIGNER_ADDRESS|PAYOUT_WALLET_ADDRESS|WORLD_ID_SIGNER_ADDRESS)=' "$REHEARSAL_DIR/keys.env"
  } >"$COMPOSE_ENV"
  chmod 600 "$COMPOSE_ENV"
}

# `docker stack deploy` of the rehearsal, its settings from compose.env (stack deploy reads no .env file itself),
# then versions.env: the images a drill deployed (API_VERSION, INDEXER_VERSION), kept by the deploys after it.
stack_deploy() {
  ( set -a; . "$COMPOSE_ENV"; [ ! -s "$REHEARSAL_DIR/versions.env" ] || . "$REHEARSAL_DIR/versions.env"; set +a
    "$DOCKER" stack deploy "${STACK_FILES[@]}" "$@" "$STACK" )
}

# "service running/desired healthy" for each service of the stack, e.g. "api 2/2 2".
service_states() {
  local name replicas healthy
  "$DOCKER" service ls --filter "label=com.docker.stack.namespace=$STACK" --format '{{.Name}} {{.Replicas}}' |
    while read -r name replicas; do
      healthy=$("$DOCKER" ps --filter "label=com.docker.swarm.service.name=$name" --filter health=healthy -q | wc -l)
      echo "${name#"${STACK}_"} $replicas $healthy"
    done
}

# Waits until every service runs its replicas, each healthy when it has a healthcheck (containers without one count
# once running), and the release step has finished.
wait_healthy() { # timeout in seconds
  local deadline=$(($(date +%s) + $1)) states missing entry service want
  while :; do
    states=$(service_states)
    missing=""
    for entry in $EXPECTED_SERVICES; do
      service=${entry%%:*} want=${entry##*:}
      local running
      running=$("$DOCKER" ps --filter "label=com.docker.swarm.service.name=${STACK}_$service" --format '{{.Status}}' |
        grep -vc 'health: starting\|unhealthy' || true)
      [ "$running" -ge "$want" ] || missing="$missing $service"
    done
    [ -n "$("$DOCKER" ps -aq --filter "label=com.docker.swarm.service.name=${STACK}_migrate" --filter exited=0)" ] || missing="$missing migrate"
    if [ -z "$missing" ]; then
      echo "$states" | sort | sed 's/^/  /'
      return 0
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "rehearsal: not every service became healthy within $1 s (waiting for:$missing):" >&2
      echo "$states" | sort | sed 's/^/  /' >&2
      "$DOCKER" service ps --no-trunc --filter desired-state=running --format '{{.Name}} {{.CurrentState}} {{.Error}}' \
        $("$DOCKER" service ls -q --filter "label=com.docker.stack.namespace=$STACK") >&2 || true
      return 1
    fi
    sleep 3
  done
}

# The containers of a service in a state (running, exited), oldest first.
containers_of_state() {
  "$DOCKER" ps -a --filter "label=com.docker.swarm.service.name=${STACK}_$1" --filter "status=$2" \
    --format '{{.CreatedAt}}|{{.Names}}' | sort | cut -d'|' -f2
}

WEB_URL=http://127.0.0.1:18080
# Where the journeys' World App simulator listens: the API's SIWE_DOMAINS and CORS_ORIGINS (rehearsal.env) name it.
# Below Linux's ephemeral range (32768-60999): it is bound late, after thousands of connections, and 48100 was once
# found in use (EADDRINUSE: the journeys did not start), likely by one of them.
SIMULATOR_PORT=28100

# A setting of the running rehearsal (compose.env).
compose_setting() { sed -n "s/^$1=//p" "$COMPOSE_ENV" | tail -1; }
check_through_caddy() {
  local answer
  answer=$(curl -fsS --max-time 10 "$WEB_URL/api/ready") || { echo "rehearsal: $WEB_URL/api/ready did not answer" >&2; return 1; }
  echo "rehearsal: through Caddy, GET /api/ready: $answer"
  local page
  page=$(curl -fsS --max-time 10 "$WEB_URL/") && [[ "$page" == *'<div id="root"'* ]] || { echo "rehearsal: $WEB_URL/ is not the mini app" >&2; return 1; }
  echo "rehearsal: through Caddy, GET / serves the mini app"
}

# Removes the stack, its volumes and any container a drill left with the stack's label (the engine must answer).
remove_stack() {
  local extra waited=0
  extra=$("$DOCKER" ps -aq --filter "label=oro.rehearsal=$STACK")
  [ -z "$extra" ] || "$DOCKER" rm -f $extra >/dev/null
  "$DOCKER" stack rm "$STACK" >"$REHEARSAL_DIR/logs/stack-rm.log" 2>&1 || true
  # stack rm returns at once; the containers, then the networks, go in the background.
  while [ -n "$("$DOCKER" ps -aq --filter "label=com.docker.stack.namespace=$STACK")" ] && [ "$waited" -lt 120 ]; do
    sleep 1
    waited=$((waited + 1))
  done
  "$DOCKER" ps -aq --filter "label=com.docker.stack.namespace=$STACK" | xargs -r "$DOCKER" rm -f >/dev/null 2>&1 || true
  waited=0
  while [ -n "$("$DOCKER" network ls -q --filter "label=com.docker.stack.namespace=$STACK")" ] && [ "$waited" -lt 60 ]; do
    sleep 1
    waited=$((waited + 1))
  done
  "$DOCKER" volume ls -q --filter "label=com.docker.stack.namespace=$STACK" | xargs -r "$DOCKER" volume rm -f >/dev/null 2>&1 || true
  # Secrets and configs cannot change in place: the next run's (new keys, an edited file) need fresh ones.
  "$DOCKER" secret ls -q --filter "label=com.docker.stack.namespace=$STACK" 2>/dev/null | xargs -r "$DOCKER" secret rm >/dev/null 2>&1 || true
  "$DOCKER" config ls -q --filter "label=com.docker.stack.namespace=$STACK" 2>/dev/null | xargs -r "$DOCKER" config rm >/dev/null 2>&1 || true
}
