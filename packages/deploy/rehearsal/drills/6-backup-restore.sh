#!/usr/bin/env bash
# Drill 6: backup and restore. pg_dump of the API's data (schema public; the indexer's schemas are rebuilt from the
# chain, not backed up), restored into a fresh database, and a third API started on it. Goals: the restored
# tables hold the same rows, and the API on the restore shows each simulator person the same user, referrals,
# vouchers and payouts as the stack's API does.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

postgres=$(containers_of postgres | head -1)
api=$(containers_of api | head -1)
restored_db=oro_restored
restored_api=oro-rehearsal-restored-api
RESTORED_PORT=48301
backup="$REHEARSAL_DIR/backup.dump"
envfile="$REHEARSAL_DIR/restored-api.env"
cleanup() {
  "$DOCKER" rm -f "$restored_api" >/dev/null 2>&1 || true
  "$DOCKER" exec "$postgres" dropdb -U oro --if-exists "$restored_db" >/dev/null 2>&1 || true
  rm -f "$backup" "$envfile"
}
trap cleanup EXIT
cleanup

started=$(date +%s%N)
"$DOCKER" exec "$postgres" pg_dump -U oro -d oro --schema public --format custom >"$backup" || { fail "pg_dump failed"; exit 1; }
# The activation worker stamps its checks on referral rows, so one may change between the dump and this digest:
# referrals are compared by their keys here, and by their content as each person sees them through the API below.
export KEYS_ONLY=referral
before=$(data_fingerprint)
drill "pg_dump of schema public: $(du -k "$backup" | cut -f1) KiB in $((($(date +%s%N) - started) / 1000000)) ms"

started=$(date +%s%N)
# A fresh database has an empty schema public of its own; the dump brings the API's.
"$DOCKER" exec "$postgres" createdb -U oro "$restored_db" &&
  "$DOCKER" exec "$postgres" psql -U oro -d "$restored_db" -qc 'DROP SCHEMA public' &&
  "$DOCKER" exec -i "$postgres" pg_restore -U oro -d "$restored_db" --no-owner --exit-on-error <"$backup" || { fail "pg_restore failed"; exit 1; }
drill "restored into the fresh database $restored_db in $((($(date +%s%N) - started) / 1000000)) ms"
after=$(SQL_DATABASE=$restored_db data_fingerprint)
echo "$before" | sed 's/^/drill:   stack:    /'
echo "$after" | sed 's/^/drill:   restored: /'
[ "$before" = "$after" ] || fail "the restored tables differ from the stack's"

# A third API on the restore: the stack's API settings, its own database, no workers (it must not pay or send).
"$DOCKER" inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$api" |
  sed -e "s#^\(DATABASE_URL=.*/\)oro\$#\1$restored_db#" -e 's/^WORKERS_ENABLED=.*/WORKERS_ENABLED=false/' -e '/^METRICS_/d' >"$envfile"
chmod 600 "$envfile"
network=$("$DOCKER" inspect --format '{{range $name, $_ := .NetworkSettings.Networks}}{{$name}}{{end}}' "$api")
"$DOCKER" run -d --init --name "$restored_api" --network "$network" --env-file "$envfile" \
  -p "127.0.0.1:$RESTORED_PORT:3001" "$("$DOCKER" inspect --format '{{.Config.Image}}' "$api")" >/dev/null || { fail "the API on the restore did not start"; exit 1; }
ready=""
for _ in $(seq 1 90); do
  curl -fsS --max-time 3 "http://127.0.0.1:$RESTORED_PORT/api/ready" >/dev/null 2>&1 && { ready=1; break; }
  sleep 1
done
[ -n "$ready" ] || { fail "the API on the restore never became ready"; "$DOCKER" logs --tail 20 "$restored_api" >&2; exit 1; }
drill "an API on $restored_db is ready"

addresses=$(sql 'SELECT address FROM "user"' | tr '\n' ' ')
# Run after the journeys: with nobody in the data there would be nothing to compare.
[ -n "$addresses" ] || fail "the stack's database has no users (the journeys run first)"
domain=$(sed -n 's/^SIWE_DOMAINS=\([^,]*\).*/\1/p' "$envfile")
rpc="http://127.0.0.1:$(compose_setting CHAIN_PORT)"
stack_view=$(node "$DRILL_DIR/api-view.mjs" "$WEB_URL" "$domain" "$rpc" $addresses) || { fail "the stack's API did not show its users"; exit 1; }
restored_view=$(node "$DRILL_DIR/api-view.mjs" "http://127.0.0.1:$RESTORED_PORT" "$domain" "$rpc" $addresses) || { fail "the API on the restore did not show its users"; exit 1; }
people=$(node -e 'const v = JSON.parse(process.argv[1]); console.log(Object.entries(v).map(([w, { earned }]) => `${w} (${JSON.stringify(earned).length} bytes of earnings)`).join(", ") || "nobody")' "$stack_view")
drill "signed in on both APIs as the simulator's people in the data: $people"
if [ "$stack_view" = "$restored_view" ]; then
  drill "both APIs show them the same users, referrals, vouchers and payouts"
else
  fail "the API on the restore shows something else"
  echo "drill:   stack:    ${stack_view:0:2000}"
  echo "drill:   restored: ${restored_view:0:2000}"
fi
[ "$DRILL_FAILED" = 0 ] && drill "passed: the backup restores to the same data, shown the same by the API"
exit "$DRILL_FAILED"
