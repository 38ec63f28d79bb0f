#!/usr/bin/env bash
# Removes the rehearsal's stack and its volumes, then stops the dockerd up.sh started (by the PID in its pidfile;
# an engine named by DOCKER_HOST is left alone, and so is its swarm).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
own_socket="unix://$REHEARSAL_DIR/docker.sock"
[ -n "${DOCKER_HOST:-}" ] || export DOCKER_HOST="$own_socket"
if docker_answers; then
  remove_stack
  log "stack removed"
fi
if [ "$DOCKER_HOST" = "$own_socket" ] && [ -s "$REHEARSAL_DIR/dockerd.pid" ]; then
  STARTED_DOCKERD_PID=$(cat "$REHEARSAL_DIR/dockerd.pid")
  stop_dockerd
fi
