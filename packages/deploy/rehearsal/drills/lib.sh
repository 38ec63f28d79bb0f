# Sourced by the fault drills (after ../lib.sh and ../compose.sh): the running rehearsal stack's containers, the
# processes inside them, steady traffic through Caddy, and SQL on its PostgreSQL. Every drill prints what it did
# and what it measured, and exits non-zero when a goal was missed.
DRILL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TRAFFIC="$DRILL_DIR/../traffic.mjs"
# An address the streak routes answer for (any address has a streak, most of them 0): they go to the indexer.
PROBE_ADDRESS=0x000000000000000000000000000000000000dEaD

drill() { echo "drill: $*"; }
fail() { echo "drill: FAILED: $*" >&2; DRILL_FAILED=1; }
DRILL_FAILED=0

# The running containers of one service of the stack, oldest first (swarm mode replaces a container that exits or
# fails its healthcheck with a new one: a name is one task's).
containers_of() { containers_of_state "$1" running; }

# The host PID of the service's own process in a container: `init: true` puts docker-init first, the app is its
# child; a container without init runs the app as its first process.
app_pid() {
  local init
  init=$("$DOCKER" inspect --format '{{.State.Pid}}' "$1")
  pgrep -P "$init" | head -1 || echo "$init"
}

# Every process of a container but docker-init (host PIDs): the indexer runs Ponder under tsx, two processes.
container_pids() {
  local init
  init=$("$DOCKER" inspect --format '{{.State.Pid}}' "$1")
  "$DOCKER" top "$1" -o pid | tail -n +2 | grep -vx " *$init *" | tr -d ' ' | tr '\n' ' '
}

# Fills `replicas` with the API's healthy containers, oldest first; false (after saying so) unless there are two.
api_replicas() {
  mapfile -t replicas < <(healthy_containers_of api)
  [ "${#replicas[@]}" -ge 2 ] || { fail "needs two healthy API replicas, found ${#replicas[@]}"; return 1; }
}

healthy_containers_of() {
  local container
  for container in $(containers_of "$1"); do [ "$(health_of "$container")" = healthy ] && echo "$container"; done
}

# Waits (up to $2 s) until the service has $3 healthy containers, none of them in $4 (space-separated names: the ones
# it replaced); prints the seconds it took.
wait_service_healthy() {
  local started deadline healthy
  started=$(date +%s)
  deadline=$((started + $2))
  while :; do
    healthy=$(healthy_containers_of "$1" | grep -vxF -f <(tr ' ' '\n' <<<"${4:-}" | grep .) || true)
    [ "$(grep -c . <<<"$healthy")" -ge "$3" ] && break
    [ "$(date +%s)" -lt "$deadline" ] || { echo "never"; return 1; }
    sleep 1
  done
  echo "$(($(date +%s) - started))"
}

# GET from inside the stack's network (an API replica's node): the services the stack publishes nowhere.
in_stack_get() {
  "$DOCKER" exec "$(containers_of api | head -1)" node -e '
    fetch(process.argv[1], { signal: AbortSignal.timeout(10_000) }).then(async (r) => { process.stdout.write(await r.text()); process.exit(r.ok ? 0 : 1); }, (e) => { console.error(e.message); process.exit(1); })' "$1"
}

health_of() { "$DOCKER" inspect --format '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$1"; }

started_at() { "$DOCKER" inspect --format '{{.State.StartedAt}}' "$1"; }

# Waits (up to $2 s) until the container is healthy; prints how long it took.
wait_container_healthy() {
  local started deadline
  started=$(date +%s)
  deadline=$((started + $2))
  until [ "$(health_of "$1")" = healthy ]; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "never"; return 1; }
    sleep 1
  done
  echo "$(($(date +%s) - started))"
}

# SQL on the stack's database, as the API's role; one value per line, fields separated by |.
sql() { "$DOCKER" exec -i "$(containers_of postgres | head -1)" psql -h /run/postgresql -U oro -d "${SQL_DATABASE:-oro}" -tAX -v ON_ERROR_STOP=1 -c "$1"; }

# Starts traffic.mjs in the background: url seconds concurrency timeout-ms pause-ms; its summary lands in $TRAFFIC_OUT.
start_traffic() {
  TRAFFIC_OUT=$(mktemp)
  node "$TRAFFIC" "$@" >"$TRAFFIC_OUT" &
  TRAFFIC_PID=$!
}

# Waits for the traffic started last and prints its summary (without the per-second detail, except the seconds that
# had a failure or a slow answer over $1 ms).
finish_traffic() {
  [ -z "$TRAFFIC_PID" ] || wait "$TRAFFIC_PID" || true
  node -e '
    const summary = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").at(-1));
    const slow = Number(process.argv[2]);
    const { perSecond, ...rest } = summary;
    console.log(`drill: traffic ${JSON.stringify(rest)}`);
    const notable = perSecond.filter((s) => s.failed > 0 || s.maxMs > slow);
    if (notable.length > 0) console.log(`drill: seconds with failures or answers over ${slow} ms: ${JSON.stringify(notable)}`);
  ' "$TRAFFIC_OUT" "${1:-1000}"
}

# A field of the last traffic summary (node's property path, e.g. failed, byStatus["503"]).
traffic_field() { node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").at(-1)); console.log(eval("s." + process.argv[2]) ?? 0)' "$TRAFFIC_OUT" "$1"; }

# What the API's data holds, table by table: rows and a digest of their content (`data_fingerprint`), or of their
# keys only (`data_fingerprint keys`: which rows exist, while the workers may update them), to compare before and
# after. KEYS_ONLY names tables digested by their keys in either case.
data_fingerprint() {
  local table key what
  for table in user referral_code referral referral_reward notification_job notification_preference; do
    key=id
    [ "$table" != notification_preference ] || key=address
    what="t::text"
    [ "${1:-}" != keys ] && [[ " ${KEYS_ONLY:-} " != *" $table "* ]] || what="t.$key"
    echo "$table $(sql "SELECT count(*) || ' rows, md5 ' || coalesce(md5(string_agg($what, ',' ORDER BY $what)), '-') FROM \"$table\" t")"
  done
}
