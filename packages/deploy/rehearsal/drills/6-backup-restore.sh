#!/usr/bin/env bash
# Drill 6: backups and a restore onto a new server. The stack's backup service dumps the API's data on a schedule
# (a minute in the rehearsal, BACKUP_INTERVAL) with retention (the newest BACKUP_KEEP, 3 here), each dump beside a
# manifest of every table's rows and checksum read in the dump's own snapshot. One more is taken now with the same
# script (`oro-backup once`). A new, separate PostgreSQL (a container of the postgres image on no network) restores
# the newest dump and the newest scheduled one, each into a fresh database.
# Goals: the schedule ran and retention held (at least 2 dumps, at most BACKUP_KEEP, each with its manifest); each
# restore matches its dump's manifest table by table (rows and checksum, every table of schema public); the restore
# of the newest holds the users the journeys made.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$REHEARSAL_LIB_DIR/compose.sh"
source "$REHEARSAL_LIB_DIR/drills/lib.sh"

backup=$(containers_of backup | head -1)
[ -n "$backup" ] || { fail "no backup service running"; exit 1; }
restore=oro-rehearsal-restore
"$DOCKER" rm -f "$restore" >/dev/null 2>&1 || true
work=$(mktemp -d)
trap '"$DOCKER" rm -f "$restore" >/dev/null 2>&1; rm -rf "$work"' EXIT

keep=$("$DOCKER" exec "$backup" printenv BACKUP_KEEP)
scheduled=$("$DOCKER" exec "$backup" sh -c 'ls -1 /backups/*.dump 2>/dev/null' | sort)
manifests=$("$DOCKER" exec "$backup" sh -c 'ls -1 /backups/*.tables 2>/dev/null' | wc -l)
drill "scheduled dumps kept: $(wc -w <<<"$scheduled") (BACKUP_KEEP $keep), manifests: $manifests; the backup service's log: $("$DOCKER" logs --tail 2 "$backup" 2>&1 | tr '\n' ' ')"
[ "$(wc -w <<<"$scheduled")" -ge 2 ] || fail "fewer than 2 scheduled dumps: the schedule did not run"
[ "$(wc -w <<<"$scheduled")" -le "$keep" ] || fail "more dumps than BACKUP_KEEP: retention did not hold"
[ "$manifests" = "$(wc -w <<<"$scheduled")" ] || fail "a dump has no manifest"
# The newest scheduled dump, not the oldest: the dump `oro-backup once` adds below (and a scheduled one meanwhile)
# makes retention delete the oldest kept before the drill could copy it.
oldest=$(tail -1 <<<"$scheduled")

started=$(date +%s%N)
newest=$("$DOCKER" exec "$backup" oro-backup once) || { fail "oro-backup once failed"; exit 1; }
drill "oro-backup once: $newest ($("$DOCKER" exec "$backup" stat -c %s "$newest") bytes) in $((($(date +%s%N) - started) / 1000000)) ms"

"$DOCKER" run -d --name "$restore" --label "oro.rehearsal=$STACK" --network none \
  -e POSTGRES_USER=oro -e POSTGRES_DB=oro -e POSTGRES_PASSWORD=restore-drill \
  "$("$DOCKER" inspect --format '{{.Config.Image}}' "$(containers_of postgres | head -1)")" >/dev/null || { fail "the new PostgreSQL did not start"; exit 1; }
for _ in $(seq 1 60); do
  "$DOCKER" exec "$restore" pg_isready -h /run/postgresql -U oro -d oro >/dev/null 2>&1 && break
  sleep 1
done
drill "a new PostgreSQL ($restore, no network: nothing of the stack's reaches it) ready"

# dump-in-backup-container, database: restores it there and compares it with its manifest.
restore_and_compare() {
  local dump=$1 database=$2 name
  name=$(basename "$dump" .dump)
  "$DOCKER" cp "$backup:$dump" "$work/$name.dump" && "$DOCKER" cp "$backup:${dump%.dump}.tables" "$work/$name.tables" || { fail "could not copy $dump"; return 1; }
  "$DOCKER" cp "$work/$name.dump" "$restore:/tmp/$name.dump" || { fail "could not copy $dump into $restore"; return 1; }
  local started=$(date +%s%N)
  { [ "$database" = oro ] || "$DOCKER" exec "$restore" createdb -h /run/postgresql -U oro "$database"; } &&
    "$DOCKER" exec "$restore" psql -h /run/postgresql -U oro -d "$database" -qc 'DROP SCHEMA public' &&
    "$DOCKER" exec "$restore" pg_restore -h /run/postgresql -U oro -d "$database" --no-owner --exit-on-error "/tmp/$name.dump" ||
    { fail "pg_restore of $name failed"; return 1; }
  "$DOCKER" exec -e PGHOST=/run/postgresql -e PGUSER=oro -e "PGDATABASE=$database" "$restore" oro-backup manifest >"$work/$name.restored" ||
    { fail "could not read the restore of $name"; return 1; }
  drill "$name restored into $database in $((($(date +%s%N) - started) / 1000000)) ms: $(wc -l <"$work/$name.tables") tables in its manifest"
  if diff "$work/$name.tables" "$work/$name.restored" >"$work/$name.diff"; then
    drill "  every table as its manifest says (rows, checksum): $(awk -F'|' '{ printf "%s %s; ", $1, $2 }' "$work/$name.restored")"
  else
    fail "the restore of $name differs from its manifest:"
    sed 's/^/drill:     /' "$work/$name.diff"
  fi
}
restore_and_compare "$newest" oro
restore_and_compare "$oldest" oro_oldest

users=$("$DOCKER" exec "$restore" psql -h /run/postgresql -U oro -d oro -tAXc 'SELECT count(*) FROM "user"')
drill "users in the restore of the newest dump: $users"
[ "${users:-0}" -gt 0 ] || fail "the restore holds no users (the journeys run first)"
[ "$DRILL_FAILED" = 0 ] && drill "passed: scheduled backups with retention, each restored onto a new server as its manifest says"
exit "$DRILL_FAILED"
