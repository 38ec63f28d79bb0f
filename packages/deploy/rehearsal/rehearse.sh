#!/usr/bin/env bash
# The production rehearsal CI runs (.ci/run, after the README's test command): builds every image
# (build-images.sh), starts the compose stack under the rehearsal profile until every service is healthy (up.sh),
# checks it through Caddy, then removes it (down.sh) and stops the dockerd it started. Each step is one check;
# the closing "# pass N" / "# fail N" lines are counted in CI's "N passed, N failed".
#
#   packages/deploy/rehearsal/rehearse.sh          (as root)
#   ORO_REHEARSAL_KEEP=1 ...                        leave the stack running afterwards (down.sh removes it)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"

passed=0
failed=0
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

ensure_dockerd || { echo "# pass 0"; echo "# fail 1"; exit 1; }
export DOCKER_HOST
cleanup() {
  if [ "${ORO_REHEARSAL_KEEP:-0}" != 1 ]; then
    "$here/down.sh" || true
    stop_dockerd
  fi
}
trap cleanup EXIT

started=$(date +%s)
if step "every image builds from deploy/Dockerfile" "$here/build-images.sh"; then
  step "the compose stack's services are all healthy, the API and the mini app answer through Caddy" "$here/up.sh"
fi
echo "rehearsal: took $(($(date +%s) - started)) s"
echo "# pass $passed"
echo "# fail $failed"
[ "$failed" = 0 ]
