#!/usr/bin/env bash
# Makes the rehearsal's network namespace and its link to the machine (lib.sh does, as every script of the rehearsal
# runs in it) and prints where the stack's published ports are reached from the machine. CI runs it before the suites:
# the link is a change of the machine's network, which a browser test running at that moment would see.
#
#   packages/deploy/rehearsal/netns.sh     (as root)
#   nsenter --net=/var/run/netns/oro-rehearsal curl http://127.0.0.1:18080/api/health   (a command in the namespace)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
if [ "$REHEARSAL_NETNS" = none ] || [ "$(id -u)" != 0 ]; then
  log "no network namespace of its own (ORO_REHEARSAL_NETNS=none, or not root): the stack publishes on this machine's"
  exit 0
fi
log "network namespace $REHEARSAL_NETNS: the stack's ports on its 127.0.0.1, and on $REHEARSAL_LINK.2 from this machine"
