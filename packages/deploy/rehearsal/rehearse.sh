#!/usr/bin/env bash
# The production rehearsal CI runs (.ci/run, beside the README's test command): builds every image of the compose
# file (build-images.sh, printing each build's time and size), deploys the stack to a one-node swarm as production
# is deployed, until every service is healthy by its own healthcheck (up.sh), runs the end-to-end journeys against
# it through Caddy (apps/e2e, playwright.rehearsal.config.ts), then the fault drills (drills/) on that one stack,
# and always removes the stack and stops the dockerd it started (trap). Each step is one check; the closing "# pass N" / "# fail N" lines, and the
# journeys' own "Tests  N failed | N passed" line, are counted in CI's "N passed, N failed".
#
#   packages/deploy/rehearsal/rehearse.sh          (as root)
#   ORO_REHEARSAL_KEEP=1 ...                        leave the stack running afterwards (down.sh removes it)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
source "$here/compose.sh"

passed=0
failed=0
journeys_failed=0
step() { # name, command...
  local name=$1 start status
  shift
  start=$(date +%s)
  echo "rehearsal: --- $name"
  "$@"
  status=$?
  if [ "$status" = 0 ]; then
    passed=$((passed + 1))
    echo "ok - $name ($(($(date +%s) - start)) s)"
  else
    failed=$((failed + 1))
    echo "not ok - $name (exit $status, $(($(date +%s) - start)) s)"
  fi
  return "$status"
}

make_rehearsal_cgroup
if ! ensure_dockerd; then
  echo "rehearsal: ================================================================================="
  echo "rehearsal: THE DOCKER ENGINE DID NOT START: no image was built, no journey or drill ran"
  echo "rehearsal: ================================================================================="
  echo "# pass 0"
  echo "# fail 1"
  exit 1
fi
export DOCKER_HOST
# A run cut short before its trap ran leaves its stack and volumes behind (in $REHEARSAL_DIR, outside the clone): the
# journeys would meet that run's users and reminders. Every rehearsal starts from an empty stack.
log "removing any stack an earlier run left"
remove_stack
cleanup() {
  if [ "${ORO_REHEARSAL_KEEP:-0}" != 1 ]; then
    "$here/down.sh" || true
    stop_dockerd
  fi
}
trap cleanup EXIT

# The journeys count themselves (their reporter's "Tests" line); a run that ends before that line is one failure.
journeys() {
  local out status
  out=$(mktemp)
  # What the journeys run on (the simulator, the dev stack's helpers, the clients), unless the caller built it just
  # before (CI does, before the suites start: a build here, beside them, is a cache hit that restores the contracts'
  # artifacts and these packages' dist folders while the suites read them).
  if [ "${ORO_REHEARSAL_JOURNEYS_BUILT:-0}" != 1 ]; then
    (cd "$REPO_ROOT" && npx --yes pnpm@10.34.9 exec turbo run build --filter=@oro/e2e^... --output-logs=errors-only) ||
      { echo "rehearsal: the journeys' packages did not build"; failed=$((failed + 1)); journeys_failed=1; rm -f "$out"; return; }
  fi
  # The stack's addresses and its own World ID signer (compose.env, written by up.sh).
  ORO_E2E_TARGET_URL=$WEB_URL ORO_E2E_TARGET_RPC_URL="http://127.0.0.1:$(compose_setting CHAIN_PORT)" \
    ORO_E2E_WORLD_ID_SIGNER=$(compose_setting WORLD_ID_SIGNER_ADDRESS) ORO_E2E_SIMULATOR_PORT=$SIMULATOR_PORT \
    npx --yes pnpm@10.34.9 --filter @oro/e2e rehearsal 2>&1 | tee "$out"
  status=${PIPESTATUS[0]}
  [ "$status" = 0 ] || journeys_failed=1
  if ! grep -q 'Tests  ' "$out"; then
    echo "rehearsal: the journeys ended (exit $status) before reporting"
    failed=$((failed + 1))
  fi
  rm -f "$out"
}

started=$(date +%s)
if step "every image of the compose file builds from deploy/Dockerfile, each within its size budget" "$here/build-images.sh" &&
  step "the stack deployed with docker stack deploy, every service healthy, the API and the mini app answer through Caddy" "$here/up.sh"; then
  echo "rehearsal: --- the end-to-end journeys against the stack, through Caddy"
  journeys_started=$(date +%s)
  journeys
  echo "rehearsal: the journeys took $(($(date +%s) - journeys_started)) s"
  # One stack for every drill, in this order: the rate limits first, while the stack is quiet; backup and restore
  # after the journeys and drill 3 made data; the deploys last, as they leave the stack on other images.
  for drill in 8-shared-rate-limits 11-client-address 9-monitoring 10-alerts-delivered 1-api-replica-killed \
    3-postgres-killed 4-indexer-down-and-hung 6-backup-restore 2-api-replica-sigterm 12-api-replica-hung 7-slow-clients \
    13-api-rolling-update 5-indexer-deploy; do
    step "drill $drill" "$here/drills/$drill.sh"
  done
fi
echo "rehearsal: took $(($(date +%s) - started)) s"
echo "# pass $passed"
echo "# fail $failed"
[ "$failed" = 0 ] && [ "$journeys_failed" = 0 ]
