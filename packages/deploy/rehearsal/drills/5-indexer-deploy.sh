#!/usr/bin/env bash
# Drill 5: a deploy of changed indexing code with zero downtime. The change is real: this commit's source with a new
# table and a handler that fills it (ERC-20 approvals of ORO), built into a new indexer image. Changed indexing code
# gets a schema of its own (the indexer names its schema after its code's fingerprint) and backfills from the start
# block beside the serving indexer. The old indexer serves until the new one's /ready says it caught up; then the new
# one takes the network name the API asks for ("indexer") and the old one stops. Goals: throughout, every streak read
# that asks the indexer (bypassCache) gets a fresh answer: no 503, no stale answer, so the API never missed the
# indexer; afterwards the new code's table exists in the new schema and the API's reads go to it.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

old=$(containers_of indexer | head -1)
new=oro-rehearsal-indexer-next
next_image="${ORO_IMAGE_PREFIX:-oro}-indexer:next"
network=$("$DOCKER" inspect --format '{{range $name, $_ := .NetworkSettings.Networks}}{{$name}}{{end}}' "$old")
envfile="$REHEARSAL_DIR/indexer-next.env"
"$DOCKER" rm -f "$new" >/dev/null 2>&1 || true
"$DOCKER" inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$old" >"$envfile"
chmod 600 "$envfile"

# The changed code: the repository's files (tracked, and new ones not ignored) plus a table and its handler.
context=$(mktemp -d)
trap 'rm -rf "$context" "$envfile"' EXIT
git -C "$REPO_ROOT" ls-files -z --cached --others --exclude-standard | (cd "$REPO_ROOT" && tar --null -T - -c 2>/dev/null) | tar -x -C "$context"
cat >>"$context/apps/indexer/ponder.schema.ts" <<'TABLE'

/** ORO allowances as last approved (rehearsal drill 5's change of indexing code). */
export const allowance = onchainTable("allowance", (t) => ({
  id: t.text().primaryKey(),
  owner: t.hex().notNull(),
  spender: t.hex().notNull(),
  value: t.bigint().notNull(),
}));
TABLE
cat >"$context/apps/indexer/src/handlers/allowances.ts" <<'HANDLER'
import { ponder } from "ponder:registry";
import { allowance } from "ponder:schema";

ponder.on("Oro:Approval", async ({ event, context }) => {
  const { owner, spender, value } = event.args;
  await context.db
    .insert(allowance)
    .values({ id: `${owner}:${spender}`.toLowerCase(), owner, spender, value })
    .onConflictDoUpdate({ value });
});
HANDLER
build_started=$(date +%s)
"$DOCKER" build --network host --progress plain \
  --secret "id=ca,src=${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}" \
  --build-arg "NODE_IMAGE=$(compose_setting NODE_IMAGE)" -f "$context/deploy/Dockerfile" --target indexer \
  -t "$next_image" "$context" >"$REHEARSAL_DIR/logs/build-indexer-next.log" 2>&1 ||
  { fail "the changed indexer did not build; the end of its log:"; tail -30 "$REHEARSAL_DIR/logs/build-indexer-next.log" >&2; exit 1; }
drill "built $next_image (the indexing code with a new table and handler) in $(($(date +%s) - build_started)) s"

drill "streak reads that ask the indexer every time (bypassCache), through Caddy, during the whole deploy"
outs=() pids=()
for address in 0x00000000000000000000000000000000000000a1 0x00000000000000000000000000000000000000a2 0x00000000000000000000000000000000000000a3; do
  curl -fsS --max-time 10 "$WEB_URL/api/streaks/current?userAddress=$address" >/dev/null || fail "no streak for $address before the drill"
  # Paced under the per-address limit of reads that reach the indexer (60 a minute).
  start_traffic "$WEB_URL/api/streaks/current?userAddress=$address&bypassCache=true" 600 1 20000 1100
  outs+=("$TRAFFIC_OUT") pids+=("$TRAFFIC_PID")
done

started=$(date +%s)
# The compose project's label: down.sh removes it with the rest of the stack.
"$DOCKER" run -d --init --name "$new" --network "$network" --env-file "$envfile" \
  --label com.docker.compose.project="$COMPOSE_PROJECT" --label com.docker.compose.service=indexer-next \
  "$next_image" >/dev/null || { fail "the new indexer did not start"; exit 1; }
schema_of() { "$DOCKER" logs "$1" 2>&1 | sed -n 's/.*into PostgreSQL schema \([a-z0-9_]*\).*/\1/p' | head -1; }
new_schema=""
for _ in $(seq 1 60); do
  new_schema=$(schema_of "$new")
  [ -z "$new_schema" ] || break
  sleep 1
done
old_schema=$(schema_of "$old")
drill "started $new (schema $new_schema) beside $old (schema $old_schema), which keeps serving"
[ -n "$new_schema" ] && [ "$new_schema" != "$old_schema" ] || fail "the changed code did not get a schema of its own"
caught_up=""
for _ in $(seq 1 300); do
  if "$DOCKER" exec "$new" node -e "fetch('http://127.0.0.1:42069/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" 2>/dev/null; then
    caught_up=$(($(date +%s) - started))
    break
  fi
  sleep 2
done
[ -n "$caught_up" ] || { fail "the new indexer did not catch up within 600 s"; "$DOCKER" logs --tail 20 "$new" >&2; }
drill "$new caught up (its /ready) $caught_up s after it started"

if [ -n "$caught_up" ]; then
  # The switch: the new indexer answers to the name "indexer" too (both serve for a moment), then the old one stops.
  "$DOCKER" network disconnect "$network" "$new" && "$DOCKER" network connect --alias indexer "$network" "$new" || fail "could not give $new the name indexer"
  sleep 2
  "$DOCKER" stop -t 20 "$old" >/dev/null
  drill "traffic moved: $new answers as indexer, $old stopped"
  sleep 20
fi
kill -TERM "${pids[@]}" 2>/dev/null
wait "${pids[@]}"
if [ -n "$caught_up" ]; then
  [ "$(sql "SELECT to_regclass('\"$new_schema\".allowance') IS NOT NULL")" = t ] || fail "the new code's table is not in $new_schema"
  answer=$(curl -fsS --max-time 10 "$WEB_URL/api/streaks/current?userAddress=0x00000000000000000000000000000000000000a1&bypassCache=true") || fail "no streak after the switch"
  drill "after the switch: $new_schema has the new table allowance; a fresh streak read through Caddy: $answer"
fi

for out in "${outs[@]}"; do
  TRAFFIC_OUT=$out TRAFFIC_PID=
  finish_traffic 3000
  [ "$(traffic_field failed)" = 0 ] || fail "$(traffic_field failed) reads failed"
  [ "$(traffic_field stale)" = 0 ] || fail "$(traffic_field stale) reads were served stale: the API missed the indexer"
done
[ "$DRILL_FAILED" = 0 ] && drill "passed: the old indexer served until the new one caught up, the API never missed one"
exit "$DRILL_FAILED"
