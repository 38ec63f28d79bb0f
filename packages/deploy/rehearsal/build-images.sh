#!/usr/bin/env bash
# Builds every image of docker-compose.yml, as `docker compose build` would, on a machine that reaches no image
# registry: each service's stage of deploy/Dockerfile with the compose file's own target and arguments (read from
# it with `docker-compose config`), all at once (BuildKit builds the stages they share once). The one difference
# is the base: DEBIAN_IMAGE, Docker Hub's debian:trixie-slim for a user, is made here with debootstrap (Debian
# trixie minbase with the same apt sources) and kept as a tarball in $ORO_REHEARSAL_DIR, so a later run, or a new
# engine, imports it in seconds. Node packages come from the npm registry over the host's network, verified against
# $SSL_CERT_FILE (a BuildKit secret, never in a layer).
#
#   packages/deploy/rehearsal/build-images.sh        (as root: debootstrap and dockerd need it)
#
# Starts its own dockerd unless DOCKER_HOST answers (lib.sh), and stops it at the end. Prints each image's build
# time and size against its budget (a size over budget fails the build: a runtime image that grew has picked up
# something it should not ship). The web image is built for the rehearsal (rehearsal.env) unless CHAIN_ID etc.
# are set in the environment.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
trap stop_dockerd EXIT

# What the web image bakes in: the environment's settings first, then the rehearsal's.
load_rehearsal_env

SUITE=trixie
# The machine's own Debian mirror (the one apt uses), else Debian's.
MIRROR=${DEBIAN_MIRROR:-$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | sed -n 's/^URIs: *\(http[^ ]*\/debian\)\/*$/\1/p' | head -1 || true)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
# The base changes with this recipe and once a week (a new point release's packages come with the image builds'
# own apt-get, so a stale base only costs them more downloads).
BASE_RECIPE="debootstrap --variant=minbase $SUITE; sources $SUITE $SUITE-updates $SUITE-security; week $(date -u +%G-%V)"
BASE_HASH=$(echo "$BASE_RECIPE" | sha256sum | cut -c1-12)
export DEBIAN_IMAGE="oro-debian/$SUITE:$BASE_HASH"

# Size budgets (MB) of the images that ship: a runtime image over its budget has picked up what it should not.
declare -A BUDGET_MB=([api]=560 [indexer]=700 [web]=230 [postgres]=500 [redis]=170 [prometheus]=340
  [alertmanager]=200 [postgres-exporter]=170 [redis-exporter]=170 [node-exporter]=170 [chain]=2500)

ensure_dockerd

timed() { # name, command...: runs it and remembers how long it took
  local name=$1 start
  shift
  start=$(date +%s)
  "$@"
  TIMES+=("$(printf '%-24s %4d s' "$name" $(($(date +%s) - start)))")
}
TIMES=()

build_base() {
  if "$DOCKER" image inspect "$DEBIAN_IMAGE" >/dev/null 2>&1; then
    log "Debian base $DEBIAN_IMAGE already in the engine"
    return 0
  fi
  local tarball="$REHEARSAL_DIR/debian-$SUITE-$BASE_HASH.tar"
  if [ ! -s "$tarball" ]; then
    command -v debootstrap >/dev/null || { echo "rehearsal: no debootstrap (apt-get install debootstrap)" >&2; return 1; }
    local root="$REHEARSAL_DIR/root-$BASE_HASH"
    rm -rf "$root"
    log "debootstrap $SUITE (minbase) from $MIRROR"
    debootstrap --variant=minbase "$SUITE" "$root" "$MIRROR" >"$REHEARSAL_DIR/logs/debootstrap.log" 2>&1 ||
      { tail -20 "$REHEARSAL_DIR/logs/debootstrap.log" >&2; return 1; }
    # The apt sources of Docker Hub's debian:trixie-slim: the release, its updates and its security updates.
    rm -f "$root/etc/apt/sources.list"
    cat >"$root/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $MIRROR
Suites: $SUITE $SUITE-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${MIRROR%/debian}/debian-security
Suites: $SUITE-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/var/log/*.log "$root/debootstrap"
    tar -C "$root" --numeric-owner -c . >"$tarball.partial"
    mv "$tarball.partial" "$tarball"
    rm -rf "$root"
    # Older bases are of no use any more.
    find "$REHEARSAL_DIR" -maxdepth 1 -name "debian-$SUITE-*.tar" ! -name "$(basename "$tarball")" -delete
  fi
  "$DOCKER" import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' "$tarball" "$DEBIAN_IMAGE" >/dev/null
  log "imported $DEBIAN_IMAGE"
}

# "service target image arg=value…" for every service the compose file builds, resolved by docker-compose.
compose_builds() {
  docker-compose --project-directory "$REPO_ROOT" -f "$REPO_ROOT/docker-compose.yml" -f "$REHEARSAL_LIB_DIR/stack.yml" config |
    node "$REHEARSAL_LIB_DIR/compose-builds.mjs"
}

build_images() {
  local builds pids=() names=() line service target image args status=0 i
  builds=$(compose_builds) || { echo "rehearsal: docker-compose config could not resolve docker-compose.yml" >&2; return 1; }
  while read -r service target image args; do
    local build_args=()
    for arg in $args; do build_args+=(--build-arg "$arg"); done
    (
      started=$(date +%s)
      "$DOCKER" build --network host --progress plain \
        --secret "id=ca,src=${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}" \
        -f "$REPO_ROOT/deploy/Dockerfile" --target "$target" -t "$image" "${build_args[@]}" "$REPO_ROOT" \
        >"$REHEARSAL_DIR/logs/build-$service.log" 2>&1
      echo "$(($(date +%s) - started))" >"$REHEARSAL_DIR/logs/build-$service.seconds"
    ) &
    pids+=($!)
    names+=("$service $image")
  done <<<"$builds"
  log "building ${#names[@]} images at once: $(printf '%s\n' "${names[@]}" | cut -d' ' -f1 | tr '\n' ' ')"
  for i in "${!pids[@]}"; do
    read -r service image <<<"${names[$i]}"
    if wait "${pids[$i]}"; then
      TIMES+=("$(printf '%-24s %4d s' "$image" "$(cat "$REHEARSAL_DIR/logs/build-$service.seconds")")")
    else
      echo "rehearsal: the $service image did not build; the end of its log:" >&2
      tail -40 "$REHEARSAL_DIR/logs/build-$service.log" >&2
      status=1
    fi
  done
  BUILT=("${names[@]}")
  return "$status"
}

total_start=$(date +%s)
timed "Debian base" build_base
# For a drill that builds an image of its own (drill 5's changed indexer).
echo "$DEBIAN_IMAGE" >"$REHEARSAL_DIR/debian-image"
timed "every image, at once" build_images

echo "images' build time (each alone, and the whole):"
for line in "${TIMES[@]}"; do echo "  $line"; done
echo "  total                    $(printf '%4d' $(($(date +%s) - total_start))) s"
echo "images' sizes against their budgets:"
over=0
for entry in "${BUILT[@]}"; do
  read -r service image <<<"$entry"
  target=${image##*/}
  target=${target%%:*}
  target=${target#"${ORO_IMAGE_PREFIX:-oro}"-}
  bytes=$("$DOCKER" image inspect --format '{{.Size}}' "$image")
  mb=$((bytes / 1000000))
  budget=${BUDGET_MB[$target]:-0}
  verdict=ok
  if [ "$budget" = 0 ] || [ "$mb" -gt "$budget" ]; then verdict="OVER BUDGET"; over=1; fi
  printf '  %-32s %5d MB  (budget %5d MB)  %s\n' "$image" "$mb" "$budget" "$verdict"
done
[ "$over" = 0 ] || { echo "rehearsal: an image is over its size budget" >&2; exit 1; }

# What ships in the app images: production dependencies only (none of the package's development dependencies), no
# tests, no TypeScript sources of the API (it runs transpiled), no package manager.
shipped() { # image, package.json, what must not be there (a find expression's names)
  local image=$1 manifest=$2 dev present
  dev=$(node -e 'const p = require(process.argv[1]); const prod = new Set(Object.keys(p.dependencies ?? {})); console.log(Object.keys(p.devDependencies ?? {}).filter((n) => !prod.has(n)).join(" "))' "$manifest")
  present=$("$DOCKER" run --rm --network none --entrypoint sh "$image" -c '
    cd /app && for name in "$@"; do [ ! -e "node_modules/$name" ] || echo "dependency:$name"; done
    # The Prisma CLI (a peer the lockfile installs beside its client) generated the client at build time only.
    ls -d node_modules/.pnpm/prisma@* 2>/dev/null | sed "s/^/tool:/"
    [ ! -d test ] || echo "tests:/app/test"
    command -v npm pnpm npx 2>/dev/null | sed "s/^/package manager:/"' sh $dev)
  echo "  $image: $(echo "$dev" | wc -w) development dependencies of its package checked, found: ${present:-none}"
  [ -z "$present" ]
}
echo "what the app images ship:"
ok=1
shipped "${ORO_IMAGE_PREFIX:-oro}-api:${API_VERSION:-latest}" "$REPO_ROOT/apps/api/package.json" || ok=0
shipped "${ORO_IMAGE_PREFIX:-oro}-indexer:${INDEXER_VERSION:-latest}" "$REPO_ROOT/apps/indexer/package.json" || ok=0
sources=$("$DOCKER" run --rm --network none --entrypoint sh "${ORO_IMAGE_PREFIX:-oro}-api:${API_VERSION:-latest}" -c 'find /app/src /app/scripts -name "*.ts" | wc -l')
echo "  the API's TypeScript files in its image: $sources (it runs the transpiled JavaScript)"
[ "$sources" = 0 ] || ok=0
[ "$ok" = 1 ] || { echo "rehearsal: an app image ships what it should not" >&2; exit 1; }
