#!/bin/bash
# oro-backup: the backup service (the postgres image, docker-compose.yml's `backup`). Every BACKUP_INTERVAL seconds
# it dumps the API's data (schema public; the indexer's schemas are rebuilt from the chain) into BACKUP_DIR as
# oro-<UTC time>.dump (pg_dump's custom format, for pg_restore), beside a manifest of every table's row count and
# checksum read in the dump's own snapshot (oro-<time>.tables), so that a restore can be checked table by table.
# It keeps the BACKUP_KEEP newest and writes its metrics for the node exporter's textfile collector
# (BACKUP_METRICS_DIR): the last success's time (the BackupTooOld alert), its size and the failures.
#
#   oro-backup            run for ever: a backup now, then one every BACKUP_INTERVAL
#   oro-backup once       one backup, printing its file
#   oro-backup manifest   the manifest of the database as it is now (what a restore is compared with)
#
# Connection: PGHOST, PGUSER, PGDATABASE, and the password from POSTGRES_PASSWORD_FILE (a Docker secret).
# Copy the dumps off the host too (a volume is not a backup of the host).
set -euo pipefail
dir=${BACKUP_DIR:-/backups}
keep=${BACKUP_KEEP:-14}
interval=${BACKUP_INTERVAL:-86400}
metrics_dir=${BACKUP_METRICS_DIR:-}
export PGHOST=${PGHOST:-postgres} PGUSER=${PGUSER:-oro} PGDATABASE=${PGDATABASE:-oro} PGCONNECT_TIMEOUT=${PGCONNECT_TIMEOUT:-10}
if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then PGPASSWORD=$(cat "$POSTGRES_PASSWORD_FILE"); export PGPASSWORD; fi
case "$keep$interval" in *[!0-9]*) echo "oro-backup: BACKUP_KEEP and BACKUP_INTERVAL must be whole numbers" >&2; exit 64 ;; esac
[ "$keep" -ge 1 ] || { echo "oro-backup: BACKUP_KEEP must be 1 or more" >&2; exit 64; }

# Every table of schema public: name, rows, and the sum of a 60-bit hash of each row (order-free, read in one pass).
MANIFEST_SQL="SELECT format('SELECT %L, count(*), coalesce(sum((''x'' || substr(md5(t::text), 1, 15))::bit(60)::bigint), 0) FROM public.%I t', tablename, tablename) FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename \\gexec"

log() { echo "oro-backup: $*"; }

failures=0 last_ok="" last_size=""
write_metrics() { # from last_ok, last_size and failures
  [ -n "$metrics_dir" ] || return 0
  local file="$metrics_dir/oro_backup.prom"
  {
    echo "# HELP oro_backup_last_success_timestamp_seconds When the last backup of the API's data finished."
    echo "# TYPE oro_backup_last_success_timestamp_seconds gauge"
    [ -z "$last_ok" ] || echo "oro_backup_last_success_timestamp_seconds $last_ok"
    echo "# HELP oro_backup_last_size_bytes Size of the last backup."
    echo "# TYPE oro_backup_last_size_bytes gauge"
    [ -z "$last_size" ] || echo "oro_backup_last_size_bytes $last_size"
    echo "# HELP oro_backup_failures_total Backups that failed since the backup service started."
    echo "# TYPE oro_backup_failures_total counter"
    echo "oro_backup_failures_total $failures"
  } >"$file.tmp"
  mv "$file.tmp" "$file"
}

# One dump and its manifest from one snapshot: a transaction holds it open while pg_dump reads it.
backup_once() {
  local stamp out snapshot line
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  out="$dir/oro-$stamp"
  coproc SNAPSHOT { psql -qtAX -v ON_ERROR_STOP=1 2>&1; }
  echo "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT pg_export_snapshot();" >&"${SNAPSHOT[1]}"
  read -r -t 30 snapshot <&"${SNAPSHOT[0]}" || true
  if [[ ! "$snapshot" =~ ^[0-9A-F-]+$ ]]; then
    log "could not open a snapshot: $snapshot"
    kill "$SNAPSHOT_PID" 2>/dev/null || true
    return 1
  fi
  if ! pg_dump --snapshot="$snapshot" --schema public --format custom --file "$out.dump.partial"; then
    kill "$SNAPSHOT_PID" 2>/dev/null || true
    rm -f "$out.dump.partial"
    return 1
  fi
  printf '%s\nSELECT %s;\n' "$MANIFEST_SQL" "'end of manifest'" >&"${SNAPSHOT[1]}"
  : >"$out.tables.partial"
  while read -r -t 3600 line <&"${SNAPSHOT[0]}"; do
    [ "$line" != "end of manifest" ] || break
    echo "$line" >>"$out.tables.partial"
  done
  echo "COMMIT;" >&"${SNAPSHOT[1]}"
  exec {SNAPSHOT[1]}>&-
  wait "$SNAPSHOT_PID" || true
  [ "$line" = "end of manifest" ] || { log "the manifest was cut short: $line"; rm -f "$out".*.partial; return 1; }
  mv "$out.tables.partial" "$out.tables"
  mv "$out.dump.partial" "$out.dump"
  # Retention: the newest $keep dumps (names sort by time), with their manifests.
  ls -1 "$dir"/oro-*.dump | sort | head -n "-$keep" | while read -r old; do rm -f "$old" "${old%.dump}.tables"; done
  echo "$out.dump"
}

case "${1:-run}" in
  once) backup_once ;;
  manifest) printf '%s\n' "$MANIFEST_SQL" | psql -qtAX -v ON_ERROR_STOP=1 ;;
  run)
    log "a backup every $interval s into $dir, keeping $keep"
    write_metrics
    trap 'exit 0' TERM INT
    while :; do
      wait_for=$interval
      if file=$(backup_once); then
        last_ok=$(date +%s) last_size=$(stat -c %s "$file")
        log "wrote $file ($last_size bytes, $(wc -l <"${file%.dump}.tables") tables)"
      else
        failures=$((failures + 1))
        # Sooner than the schedule: a backup that failed (PostgreSQL restarting, say) is tried again in 5 minutes.
        [ "$wait_for" -le 300 ] || wait_for=300
        log "backup failed ($failures since start); next try in $wait_for s"
      fi
      write_metrics
      sleep "$wait_for" &
      wait $!
    done
    ;;
  *) echo "usage: oro-backup [run|once|manifest]" >&2; exit 64 ;;
esac
