#!/usr/bin/env bash
# Removes the rehearsal's stack and its volumes, prunes what older runs left in its own engine (replaced images, build
# cache over 8 GB), then stops the dockerd up.sh started (by the PID in its pidfile; an engine named by DOCKER_HOST is
# left alone, and so is its swarm).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
own_socket="unix://$REHEARSAL_DIR/docker.sock"
[ -n "${DOCKER_HOST:-}" ] || export DOCKER_HOST="$own_socket"
if docker_answers; then
  remove_stack
  log "stack removed"
  if [ "$DOCKER_HOST" = "$own_socket" ]; then
    # The engine's data root outlives the run (the next build reuses its layers), and each run leaves the images it
    # replaced (a new build of every image, drills 5 and 13's "next" and "not-ready") and their build cache: 36 GB
    # after a day of runs here, enough to put the machine under DiskSpaceLow's 15%. Kept: tagged images and the
    # most recently used build cache up to ORO_REHEARSAL_BUILD_CACHE (8 GB, more than one build of every image).
    images=$("$DOCKER" image prune -f 2>/dev/null | tail -1)
    cache=$("$DOCKER" builder prune -f --keep-storage "${ORO_REHEARSAL_BUILD_CACHE:-8GB}" 2>/dev/null | tail -1)
    log "pruned the images older runs replaced (${images:-nothing}) and the build cache over ${ORO_REHEARSAL_BUILD_CACHE:-8GB} (${cache:-nothing})"
  fi
fi
if [ "$DOCKER_HOST" = "$own_socket" ] && [ -s "$REHEARSAL_DIR/dockerd.pid" ]; then
  STARTED_DOCKERD_PID=$(cat "$REHEARSAL_DIR/dockerd.pid")
  stop_dockerd
fi
