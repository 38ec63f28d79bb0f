#!/usr/bin/env bash
# Drill 5: a deploy of changed indexing code with zero downtime, with the one command an operator runs:
# `INDEXER_VERSION=next docker stack deploy`. The change is real: this commit's source with a new table and a handler
# that fills it (ERC-20 approvals of ORO), built into a new indexer image. Changed indexing code gets a schema of its
# own (the indexer names its schema after its code's fingerprint) and backfills from the start block beside the
# serving indexer (update order start-first). Its healthcheck is /ready (caught up): until then Docker's DNS does
# not list it, so the name "indexer" the API asks for stays the old one's; once it is healthy, swarm mode stops the
# old one. Goals: throughout, every streak read that asks the indexer (bypassCache) gets a fresh answer: no 503, no
# stale answer, so the API never missed the indexer; the update completes; afterwards the new code's table exists in
# the new schema and the API's reads go to it.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

old=$(containers_of indexer | head -1)
next_image="${ORO_IMAGE_PREFIX:-oro}-indexer:next"

# The changed code: the repository's files (tracked, and new ones not ignored) plus a table and its handler.
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
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
  --build-arg "DEBIAN_IMAGE=$(cat "$REHEARSAL_DIR/debian-image")" -f "$context/deploy/Dockerfile" --target indexer \
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
echo "INDEXER_VERSION=next" >>"$REHEARSAL_DIR/versions.env"
drill "INDEXER_VERSION=next docker stack deploy"
stack_deploy >"$REHEARSAL_DIR/logs/deploy-indexer-next.log" 2>&1 || { fail "stack deploy refused"; cat "$REHEARSAL_DIR/logs/deploy-indexer-next.log" >&2; }
schema_of() { "$DOCKER" logs "$1" 2>&1 | sed -n 's/.*into PostgreSQL schema \([a-z0-9_]*\).*/\1/p' | head -1; }
old_schema=$(schema_of "$old")
new="" new_schema=""
for _ in $(seq 1 120); do
  new=$(containers_of indexer | grep -vx "$old" | head -1)
  [ -z "$new" ] || new_schema=$(schema_of "$new")
  [ -z "$new_schema" ] || break
  sleep 1
done
drill "swarm started $new (schema $new_schema) beside $old (schema $old_schema), which keeps serving"
[ -n "$new_schema" ] && [ "$new_schema" != "$old_schema" ] || fail "the changed code did not get a schema of its own"
state=""
for _ in $(seq 1 300); do
  state=$("$DOCKER" service inspect --format '{{if .UpdateStatus}}{{.UpdateStatus.State}}{{end}}' "${STACK}_indexer")
  case "$state" in completed | rollback_completed | paused | rollback_paused) break ;; esac
  sleep 2
done
caught_up=$(($(date +%s) - started))
drill "the update ended ($state) $caught_up s after the command: $new healthy (caught up), $old $("$DOCKER" inspect --format '{{.State.Status}}' "$old" 2>/dev/null || echo removed)"
[ "$state" = completed ] || fail "the indexer's update did not complete (state ${state:-none})"
sleep 20
kill -TERM "${pids[@]}" 2>/dev/null
wait "${pids[@]}"
if [ "$state" = completed ]; then
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
