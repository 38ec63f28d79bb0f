# Shared by the rehearsal scripts (sourced, not run): the Docker engine they talk to, and how long things took.
#
#   ORO_REHEARSAL_DIR   where the rehearsal keeps its own engine (socket, data root, pidfile) and logs;
#                       default /var/tmp/oro-rehearsal (outside the repository: nothing of it goes into git)
#   DOCKER_HOST         an engine to use instead; when unset (or not answering) the scripts start their own
#                       dockerd on $ORO_REHEARSAL_DIR/docker.sock and stop it when they end
#   ORO_KEEP_DOCKERD=1  leave the engine they started running (the next script finds it on the same socket)
#   ORO_REHEARSAL_ADDRESS_POOL, ORO_REHEARSAL_SWARM_POOL   the address ranges of the engine's local networks and of
#                       the swarm's (defaults 10.231.0.0/16 and 10.232.0.0/16): another engine on the machine must not
#                       use them

REHEARSAL_DIR=${ORO_REHEARSAL_DIR:-/var/tmp/oro-rehearsal}
REHEARSAL_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$REHEARSAL_LIB_DIR/../../.." && pwd)
mkdir -p "$REHEARSAL_DIR/logs"

# The rehearsal's own network namespace (as root; ORO_REHEARSAL_NETNS=none keeps the machine's). Its engine makes and
# removes bridges, veths and addresses all the time (a stack deploy, every drill's killed or replaced container), and
# Chromium drops every request in flight, loopback included, whenever the network it runs in changes: in a namespace
# of its own, the stack's churn reaches only the journeys run in there (before the drills), never a browser test
# beside it. One veth pair, made once, reaches the machine's network (NAT), which the image builds need for Debian and
# npm; the stack's published ports are on the namespace's loopback and on its end of that pair (ORO_REHEARSAL_LINK.2).
REHEARSAL_NETNS=${ORO_REHEARSAL_NETNS:-oro-rehearsal}
REHEARSAL_LINK=${ORO_REHEARSAL_LINK:-10.230.255}

# Makes the namespace and its link to the machine when missing (idempotent; this is a change of the machine's own
# network, so CI makes it before any browser test starts).
ensure_rehearsal_netns() {
  [ "$REHEARSAL_NETNS" != none ] && [ "$(id -u)" = 0 ] || return 0
  local host_end=oro-rh0 ns_end=oro-rh1
  [ -e "/var/run/netns/$REHEARSAL_NETNS" ] || ip netns add "$REHEARSAL_NETNS" || return 1
  ip -n "$REHEARSAL_NETNS" link set lo up
  if ! ip -n "$REHEARSAL_NETNS" link show "$ns_end" >/dev/null 2>&1; then
    ip link del "$host_end" 2>/dev/null || true
    ip link add "$host_end" type veth peer name "$ns_end" netns "$REHEARSAL_NETNS" &&
      ip addr add "$REHEARSAL_LINK.1/30" dev "$host_end" && ip link set "$host_end" up &&
      ip -n "$REHEARSAL_NETNS" addr add "$REHEARSAL_LINK.2/30" dev "$ns_end" &&
      ip -n "$REHEARSAL_NETNS" link set "$ns_end" up &&
      ip -n "$REHEARSAL_NETNS" route add default via "$REHEARSAL_LINK.1" || return 1
  fi
  [ "$(cat /proc/sys/net/ipv4/ip_forward)" = 1 ] || echo 1 >/proc/sys/net/ipv4/ip_forward
  # Another engine on the machine may have set FORWARD's policy to DROP: this link's traffic is let through first.
  iptables -t nat -C POSTROUTING -s "$REHEARSAL_LINK.0/30" ! -o "$host_end" -j MASQUERADE 2>/dev/null ||
    iptables -t nat -A POSTROUTING -s "$REHEARSAL_LINK.0/30" ! -o "$host_end" -j MASQUERADE || return 1
  local direction
  for direction in -i -o; do
    iptables -C FORWARD "$direction" "$host_end" -j ACCEPT 2>/dev/null || iptables -I FORWARD 1 "$direction" "$host_end" -j ACCEPT || return 1
  done
}

in_rehearsal_netns() {
  [ "$(stat -L -c %i /proc/$$/ns/net)" = "$(stat -L -c %i "/var/run/netns/$REHEARSAL_NETNS" 2>/dev/null)" ]
}

# Every script of the rehearsal runs in that namespace: one started outside it (by CI, or by hand) runs itself again
# in there, with the same arguments (a sourced file sees its caller's). Only the network is switched: the files,
# mounts and cgroups stay the machine's (`ip netns exec` would remount /sys without the cgroups dockerd needs).
if [ "$REHEARSAL_NETNS" != none ] && [ "$(id -u)" = 0 ] && ! in_rehearsal_netns; then
  ensure_rehearsal_netns || { echo "rehearsal: could not make the network namespace $REHEARSAL_NETNS" >&2; exit 1; }
  exec nsenter --net="/var/run/netns/$REHEARSAL_NETNS" -- "$0" "$@"
fi

# A CPU cgroup of the rehearsal's own for the stack's containers, weighted ORO_REHEARSAL_CPU_SHARES (default 4096, four
# times a process of the machine's): CI runs the rehearsal beside the suites, and the drills measure the stack's
# recovery against production's bounds (a replica replaced within its healthcheck's time, an alert within 180 s),
# which the stack meets on a machine of its own. The drills' own load generators and the journeys' browser stay at the
# machine's weight: the stack serves them first, but what they ask of it slows with the machine, so the suites beside
# it (which must hold under load anyway) never see more than a few busy processes' worth. As root, cgroup v1 or v2;
# elsewhere nothing changes.
REHEARSAL_CGROUP=oro-rehearsal
rehearsal_cgroup_dir() {
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then echo "/sys/fs/cgroup/$REHEARSAL_CGROUP"
  elif [ -d /sys/fs/cgroup/cpu ]; then echo "/sys/fs/cgroup/cpu/$REHEARSAL_CGROUP"
  fi
}
# Makes the cgroup and exports ORO_REHEARSAL_CGROUP_PARENT, which ensure_dockerd gives a new engine: its containers
# (the stack) go under it.
make_rehearsal_cgroup() {
  [ "$(id -u)" = 0 ] || return 0
  local dir shares=${ORO_REHEARSAL_CPU_SHARES:-4096}
  dir=$(rehearsal_cgroup_dir)
  [ -n "$dir" ] && mkdir -p "$dir" 2>/dev/null || return 0
  if [ -f "$dir/cpu.weight" ]; then
    echo $((shares * 100 / 1024 > 10000 ? 10000 : shares * 100 / 1024)) >"$dir/cpu.weight" 2>/dev/null || return 0
  else
    echo "$shares" >"$dir/cpu.shares" 2>/dev/null || return 0
  fi
  export ORO_REHEARSAL_CGROUP_PARENT="/$REHEARSAL_CGROUP"
}
# The docker CLI that comes with the engine (docker.io): it builds with BuildKit without the buildx plugin,
# which a newer CLI elsewhere on the PATH may lack.
if [ -z "${DOCKER:-}" ]; then
  if [ -x /usr/bin/docker ]; then DOCKER=/usr/bin/docker; else DOCKER=$(command -v docker || echo docker); fi
fi
export DOCKER_BUILDKIT=1 COMPOSE_DOCKER_CLI_BUILD=1
STARTED_DOCKERD_PID=""

log() { echo "rehearsal: $*"; }

docker_answers() { "$DOCKER" version --format '{{.Server.Version}}' >/dev/null 2>&1; }

# Uses $DOCKER_HOST when it answers; otherwise our own socket if a dockerd of ours still runs there; otherwise
# starts one (its own socket, data root, exec root and pidfile; no default bridge, so it never touches another
# engine's docker0: builds use the host network and compose makes its own networks).
ensure_dockerd() {
  if [ -n "${DOCKER_HOST:-}" ] && docker_answers; then
    log "using the Docker engine at $DOCKER_HOST"
    return 0
  fi
  export DOCKER_HOST="unix://$REHEARSAL_DIR/docker.sock"
  if docker_answers; then
    log "using the rehearsal's Docker engine already running at $DOCKER_HOST"
    return 0
  fi
  local dockerd
  dockerd=$(command -v dockerd || echo /usr/sbin/dockerd)
  if [ ! -x "$dockerd" ]; then
    echo "rehearsal: no dockerd (apt-get install docker.io)" >&2
    return 1
  fi
  mkdir -p "$REHEARSAL_DIR/data" "$REHEARSAL_DIR/exec"
  rm -f "$REHEARSAL_DIR/docker.sock"
  # The network namespaces a dockerd stopped before its own cleanup (killed) left under its exec root. One that holds
  # a swarm overlay's vxlan device keeps the next engine from creating the ingress network ("error creating vxlan
  # interface: file exists"), and every port the stack publishes then resets its connections. Only when no engine
  # of ours is alive: its namespaces are then nobody's.
  local stale_pid ns
  stale_pid=$(cat "$REHEARSAL_DIR/dockerd.pid" 2>/dev/null || true)
  if [ -z "$stale_pid" ] || ! kill -0 "$stale_pid" 2>/dev/null; then
    for ns in "$REHEARSAL_DIR"/exec/netns/*; do
      [ -e "$ns" ] || continue
      umount "$ns" 2>/dev/null || true
      rm -f "$ns" && log "removed a network namespace an earlier engine left: ${ns##*/}"
    done
  fi
  "$dockerd" --host "$DOCKER_HOST" --data-root "$REHEARSAL_DIR/data" --exec-root "$REHEARSAL_DIR/exec" \
    --pidfile "$REHEARSAL_DIR/dockerd.pid" --bridge none --log-level warn \
    ${ORO_REHEARSAL_CGROUP_PARENT:+--cgroup-parent "$ORO_REHEARSAL_CGROUP_PARENT"} \
    --default-address-pool "base=${ORO_REHEARSAL_ADDRESS_POOL:-10.231.0.0/16},size=24" \
    >>"$REHEARSAL_DIR/logs/dockerd.log" 2>&1 &
  STARTED_DOCKERD_PID=$!
  local waited=0
  until docker_answers; do
    if ! kill -0 "$STARTED_DOCKERD_PID" 2>/dev/null; then
      echo "rehearsal: dockerd exited; its log:" >&2
      tail -20 "$REHEARSAL_DIR/logs/dockerd.log" >&2
      return 1
    fi
    waited=$((waited + 1))
    if [ "$waited" -gt 60 ]; then
      echo "rehearsal: dockerd did not answer within 60 s" >&2
      return 1
    fi
    sleep 1
  done
  log "started dockerd (pid $STARTED_DOCKERD_PID) at $DOCKER_HOST, data in $REHEARSAL_DIR/data"
}

# Stops the dockerd this script started (by its PID), unless ORO_KEEP_DOCKERD=1.
stop_dockerd() {
  [ -n "$STARTED_DOCKERD_PID" ] || return 0
  # Already stopped (down.sh stops the engine it finds in the pidfile, then rehearse.sh's trap comes here).
  kill -0 "$STARTED_DOCKERD_PID" 2>/dev/null || { STARTED_DOCKERD_PID=""; return 0; }
  if [ "${ORO_KEEP_DOCKERD:-0}" = 1 ]; then
    log "leaving dockerd (pid $STARTED_DOCKERD_PID) running at $DOCKER_HOST (ORO_KEEP_DOCKERD=1)"
    return 0
  fi
  kill "$STARTED_DOCKERD_PID" 2>/dev/null || true
  local waited=0
  while kill -0 "$STARTED_DOCKERD_PID" 2>/dev/null && [ "$waited" -lt 30 ]; do
    sleep 1
    waited=$((waited + 1))
  done
  kill -9 "$STARTED_DOCKERD_PID" 2>/dev/null || true
  log "stopped dockerd (pid $STARTED_DOCKERD_PID)"
  STARTED_DOCKERD_PID=""
}

# The rehearsal's settings (rehearsal.env) for what the environment does not set, exported: the compose file's
# interpolation and the web image's build arguments read them.
load_rehearsal_env() {
  local key value
  set -a
  while IFS='=' read -r key value; do
    case "$key" in '' | \#*) continue ;; esac
    [ -n "${!key+x}" ] || eval "$key=\$value"
  done <"$REHEARSAL_LIB_DIR/rehearsal.env"
  ORO_SECRETS_DIR=${ORO_SECRETS_DIR:-$REHEARSAL_DIR/secrets}
  set +a
}
