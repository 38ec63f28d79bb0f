# Sourced after lib.sh: the rehearsal's compose project and what the scripts ask of it.
COMPOSE_PROJECT=oro-rehearsal
COMPOSE_ENV="$REHEARSAL_DIR/compose.env"
# Every service of the rehearsal and monitoring profiles, with the API's replicas.
EXPECTED_SERVICES="postgres redis indexer api api web chain prometheus"

compose() {
  docker-compose --compatibility -p "$COMPOSE_PROJECT" --env-file "$COMPOSE_ENV" \
    --project-directory "$REPO_ROOT" -f "$REPO_ROOT/docker-compose.yml" --profile rehearsal --profile monitoring "$@"
}

# rehearsal.env, the bases build-images.sh made, and this rehearsal's own secrets (made once, kept).
write_compose_env() {
  local secrets="$REHEARSAL_DIR/secrets.env"
  # A directory from before the payout wallet was part of the rehearsal gets fresh secrets (its volumes are gone).
  grep -q '^PAYOUT_WALLET_ADDRESS=' "$secrets" 2>/dev/null || rm -f "$secrets"
  if [ ! -s "$secrets" ]; then
    # Made inside the API image (viem is there), so that nothing on the machine needs installing.
    "$DOCKER" run --rm --network none -w /repo/apps/api "${ORO_IMAGE_PREFIX:-oro}-api:${ORO_VERSION:-latest}" node --input-type=module -e '
      import { randomBytes } from "node:crypto";
      import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
      const signer = generatePrivateKey();
      console.log(`POSTGRES_PASSWORD=${randomBytes(16).toString("hex")}`);
      console.log(`CLAIM_SIGNER_PRIVATE_KEY=${signer}`);
      console.log(`CLAIM_SIGNER_ADDRESS=${privateKeyToAccount(signer).address}`);
      // The payout wallet of `auto` rewards (drill 1 queues some); up.sh gives it ETH on the chain.
      const payoutWallet = generatePrivateKey();
      console.log(`PAYOUT_WALLET_PRIVATE_KEY=${payoutWallet}`);
      console.log(`PAYOUT_WALLET_ADDRESS=${privateKeyToAccount(payoutWallet).address}`);
      const worldIdSigner = generatePrivateKey();
      console.log(`WORLD_ID_SIGNING_KEY=${worldIdSigner}`);
      // Not a setting of the stack: the simulator of the journeys checks World ID requests against this address.
      console.log(`WORLD_ID_SIGNER_ADDRESS=${privateKeyToAccount(worldIdSigner).address}`);
    ' >"$secrets.new"
    mv "$secrets.new" "$secrets"
    chmod 600 "$secrets"
  fi
  [ -s "$REHEARSAL_DIR/bases.env" ] || { echo "rehearsal: no $REHEARSAL_DIR/bases.env: run build-images.sh first" >&2; return 1; }
  cat "$REHEARSAL_LIB_DIR/rehearsal.env" "$REHEARSAL_DIR/bases.env" "$secrets" >"$COMPOSE_ENV"
  chmod 600 "$COMPOSE_ENV"
}

# "service health" for each container of the project.
service_states() {
  "$DOCKER" ps -a --filter "label=com.docker.compose.project=$COMPOSE_PROJECT" \
    --format '{{.Label "com.docker.compose.service"}} {{.Status}}'
}

wait_healthy() { # timeout in seconds
  local deadline=$(($(date +%s) + $1)) states healthy expected
  expected=$(echo $EXPECTED_SERVICES | wc -w)
  while :; do
    states=$(service_states)
    healthy=$(echo "$states" | grep -c '(healthy)' || true)
    if [ "$healthy" -ge "$expected" ]; then
      echo "$states" | sort | sed 's/^/  /'
      return 0
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "rehearsal: not every service became healthy within $1 s:" >&2
      echo "$states" | sort | sed 's/^/  /' >&2
      compose logs --tail 30 >&2 || true
      return 1
    fi
    sleep 5
  done
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

# Removes the project's containers, network and volumes, if any (the engine must answer). A container a drill left
# with the project's label (drill 5's new indexer) goes first: compose does not count it as its own, and it would
# keep the project's network in use.
remove_stack() {
  local extra
  extra=$("$DOCKER" ps -aq --filter "label=com.docker.compose.project=$COMPOSE_PROJECT" --filter "label=com.docker.compose.service=indexer-next")
  [ -z "$extra" ] || "$DOCKER" rm -f $extra >/dev/null
  compose down -v --remove-orphans >"$REHEARSAL_DIR/logs/compose-down.log" 2>&1 || tail -20 "$REHEARSAL_DIR/logs/compose-down.log" >&2
}
