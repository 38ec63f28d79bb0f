#!/bin/sh
# The postgres image's entrypoint, with the official image's interface: POSTGRES_USER, POSTGRES_PASSWORD (or
# POSTGRES_PASSWORD_FILE, a Docker secret) and POSTGRES_DB create the cluster in $PGDATA on the first start; then
# the server runs in the foreground, listening on every address (password auth), with its settings as arguments.
# Durability is PostgreSQL's default and stays so: fsync, synchronous_commit and full_page_writes on (the
# rehearsal's drill kills the server with writes in flight and finds every acknowledged one).
set -eu
PGDATA=${PGDATA:-/var/lib/postgresql/data}
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then
    POSTGRES_PASSWORD=$(cat "$POSTGRES_PASSWORD_FILE")
  fi
  : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE}"
  # The socket folder: the one place besides the data this read-only container writes.
  pwfile=$(mktemp -p /run/postgresql)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    echo "CREATE DATABASE \"$db\" OWNER \"$user\";" | postgres --single -D "$PGDATA" -j postgres >/dev/null
  fi
  echo "postgres-entrypoint: created the cluster in $PGDATA (user $user, database $db)"
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
