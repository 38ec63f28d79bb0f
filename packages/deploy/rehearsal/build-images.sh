#!/usr/bin/env bash
# Builds every ORO image from deploy/Dockerfile on a machine that reaches no image registry: the bases the
# Dockerfile names (node, caddy) and the compose file's postgres and redis are assembled from Debian trixie's
# packages (debootstrap, then `docker import`) and passed as build arguments; Node packages come from the npm
# registry over the host's network, verified against $SSL_CERT_FILE (a BuildKit secret, never in a layer).
#
#   packages/deploy/rehearsal/build-images.sh        (as root: debootstrap and dockerd need it)
#
# Starts its own dockerd unless DOCKER_HOST answers (lib.sh), and stops it at the end. Idempotent: the Debian
# bases are built once per package list (tagged with its hash) and the images reuse BuildKit's layer cache, so a
# second run takes seconds. Prints each image's build time; writes the bases' names to
# $ORO_REHEARSAL_DIR/bases.env for up.sh. The web image is built for the rehearsal (rehearsal.env) unless
# CHAIN_ID etc. are set in the environment.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
trap stop_dockerd EXIT

# What the web image bakes in: the environment's settings first, then the rehearsal's.
set -a
while IFS='=' read -r key value; do
  case "$key" in '' | \#*) continue ;; esac
  [ -n "${!key+x}" ] || eval "$key=\$value"
done <"$REHEARSAL_LIB_DIR/rehearsal.env"
set +a

SUITE=trixie
# The machine's own Debian mirror (the one apt uses), else Debian's.
MIRROR=${DEBIAN_MIRROR:-$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | sed -n 's/^URIs: *\(http[^ ]*\/debian\)\/*$/\1/p' | head -1 || true)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
# One root for every base (Node.js 20.19 and npm, Caddy 2.6 with nftables for its per-address connection cap,
# PostgreSQL 17, Redis 8, Prometheus for the monitoring profile, wget for healthchecks):
# built once, imported once, each base a thin layer over it with its own user, entrypoint and command.
# debootstrap lays down the minimal system; apt-get in the root installs the rest (debootstrap's own resolver
# leaves npm's dependencies unconfigured).
PACKAGES="nodejs npm caddy nftables postgresql-17 redis-server prometheus wget"
BASE_HASH=$( (echo "$SUITE $PACKAGES"; cat "$REHEARSAL_LIB_DIR/postgres-entrypoint.sh") | sha256sum | cut -c1-12)
ROOT_IMAGE="oro-debian/root:$BASE_HASH"

ensure_dockerd

timed() { # name, command...: runs it and remembers how long it took
  local name=$1 start
  shift
  start=$(date +%s)
  "$@"
  TIMES+=("$(printf '%-22s %4d s' "$name" $(($(date +%s) - start)))")
}
TIMES=()

build_root() {
  if "$DOCKER" image inspect "$ROOT_IMAGE" >/dev/null 2>&1; then
    log "Debian base $ROOT_IMAGE already built"
    return 0
  fi
  command -v debootstrap >/dev/null || { echo "rehearsal: no debootstrap (apt-get install debootstrap)" >&2; return 1; }
  local root="$REHEARSAL_DIR/root-$BASE_HASH"
  # A root left by an interrupted run is reused once debootstrap had finished it.
  if [ ! -e "$root/.oro-debootstrap-done" ]; then
    rm -rf "$root"
    log "debootstrap $SUITE from $MIRROR, then apt-get install $PACKAGES (a few minutes)"
    debootstrap --variant=minbase --include=ca-certificates,passwd "$SUITE" "$root" "$MIRROR" >"$REHEARSAL_DIR/logs/debootstrap.log" 2>&1 ||
      { tail -20 "$REHEARSAL_DIR/logs/debootstrap.log" >&2; return 1; }
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # No service starts inside the root.
    printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
    chmod +x "$root/usr/sbin/policy-rc.d"
    { chroot "$root" apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends $PACKAGES; } \
      >>"$REHEARSAL_DIR/logs/debootstrap.log" 2>&1 || { tail -20 "$REHEARSAL_DIR/logs/debootstrap.log" >&2; return 1; }
    rm -f "$root/usr/sbin/policy-rc.d" "$root/etc/resolv.conf"
    touch "$root/.oro-debootstrap-done"
  fi
  # The official node image's user (uid 1000), which the Dockerfile's app stages run as.
  chroot "$root" id node >/dev/null 2>&1 || chroot "$root" useradd --create-home --uid 1000 --user-group --shell /bin/sh node
  # PostgreSQL as the official image lays it out: the data folder (a new volume copies its owner), the socket
  # folder, and the entrypoint; Debian's own cluster is not used.
  rm -rf "$root/var/lib/postgresql/17" "$root/etc/postgresql/17"
  install -m 0755 "$REHEARSAL_LIB_DIR/postgres-entrypoint.sh" "$root/usr/local/bin/postgres-entrypoint"
  mkdir -p "$root/var/lib/postgresql/data" "$root/run/postgresql"
  chroot "$root" chown postgres:postgres /var/lib/postgresql/data /run/postgresql
  chmod 700 "$root/var/lib/postgresql/data"
  mkdir -p "$root/etc/caddy" "$root/srv"
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/tmp/* "$root"/var/log/*.log
  tar -C "$root" --numeric-owner --exclude=./.oro-debootstrap-done --exclude=./debootstrap -c . | "$DOCKER" import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$ROOT_IMAGE" >/dev/null
  rm -rf "$root"
  log "imported $ROOT_IMAGE"
}

# name, Dockerfile lines: a thin base over the root.
thin_base() {
  local name=$1
  shift
  # No network: the rehearsal's engine has no bridge, and a base's RUN needs none.
  printf '%s\n' "FROM $ROOT_IMAGE" "$@" | "$DOCKER" build --network none -q -t "$name" - >/dev/null
}

build_bases() {
  build_root
  NODE_IMAGE="oro-debian/node:$BASE_HASH"
  CADDY_IMAGE="oro-debian/caddy:$BASE_HASH"
  POSTGRES_IMAGE="oro-debian/postgres:$BASE_HASH"
  REDIS_IMAGE="oro-debian/redis:$BASE_HASH"
  thin_base "$NODE_IMAGE" 'CMD ["node"]'
  thin_base "$CADDY_IMAGE" 'WORKDIR /srv' 'CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]'
  thin_base "$POSTGRES_IMAGE" 'ENV PATH=/usr/lib/postgresql/17/bin:/usr/local/bin:/usr/bin:/bin PGDATA=/var/lib/postgresql/data' \
    'USER postgres' 'STOPSIGNAL SIGINT' 'ENTRYPOINT ["/usr/local/bin/postgres-entrypoint"]'
  thin_base "$REDIS_IMAGE" 'USER redis' 'CMD ["redis-server"]'
  # As the official image runs it: the compose file passes the flags; its data volume starts owned by the user.
  PROMETHEUS_IMAGE="oro-debian/prometheus:$BASE_HASH"
  thin_base "$PROMETHEUS_IMAGE" 'RUN mkdir -p /prometheus && chown nobody:nogroup /prometheus' 'USER nobody' 'ENTRYPOINT ["/usr/bin/prometheus"]'
  cat >"$REHEARSAL_DIR/bases.env" <<BASES
NODE_IMAGE=$NODE_IMAGE
CADDY_IMAGE=$CADDY_IMAGE
POSTGRES_IMAGE=$POSTGRES_IMAGE
REDIS_IMAGE=$REDIS_IMAGE
PROMETHEUS_IMAGE=$PROMETHEUS_IMAGE
BASES
}

build_image() { # target, extra docker build arguments...
  local target=$1
  shift
  log "building ${ORO_IMAGE_PREFIX:-oro}-$target"
  "$DOCKER" build --network host --progress plain \
    --secret "id=ca,src=${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}" \
    --build-arg "NODE_IMAGE=$NODE_IMAGE" --build-arg "CADDY_IMAGE=$CADDY_IMAGE" \
    -f "$REPO_ROOT/deploy/Dockerfile" --target "$target" \
    -t "${ORO_IMAGE_PREFIX:-oro}-$target:${ORO_VERSION:-latest}" "$@" "$REPO_ROOT" \
    >"$REHEARSAL_DIR/logs/build-$target.log" 2>&1 ||
    { echo "rehearsal: the $target image did not build; the end of its log:" >&2; tail -40 "$REHEARSAL_DIR/logs/build-$target.log" >&2; return 1; }
}

total_start=$(date +%s)
timed "Debian bases" build_bases
timed "oro-api" build_image api
timed "oro-indexer" build_image indexer
timed "oro-chain" build_image chain
timed "oro-web" build_image web \
  --build-arg "VITE_CHAIN_ID=$CHAIN_ID" --build-arg "VITE_WORLD_APP_ID=$WORLD_APP_ID" \
  --build-arg "VITE_RPC_URL=${WEB_RPC_URL:-}" --build-arg "VITE_CLAIM_ISSUES_BANNER=${CLAIM_ISSUES_BANNER:-false}" \
  --build-arg "ORO_REHEARSAL=${ORO_REHEARSAL:-false}"

echo "images' build time:"
for line in "${TIMES[@]}"; do echo "  $line"; done
echo "  total                  $(printf '%4d' $(($(date +%s) - total_start))) s"
"$DOCKER" image ls --format '  {{.Repository}}:{{.Tag}}  {{.Size}}' | grep -E "^  (${ORO_IMAGE_PREFIX:-oro}-[a-z]+|oro-debian/[a-z]+):(${ORO_VERSION:-latest}|$BASE_HASH) " || true
