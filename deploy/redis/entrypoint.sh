#!/bin/sh
# The redis image's entrypoint: the rate limits' counters, for a minute each, so nothing is persisted. Every client
# must authenticate with the password in REDIS_PASSWORD_FILE (a Docker secret); it goes into a configuration file on
# the container's tmpfs (/run/redis), never onto the command line or into the environment. Further arguments are
# redis-server's own.
set -eu
: "${REDIS_PASSWORD_FILE:?set REDIS_PASSWORD_FILE (a file holding the password every client must give)}"
password=$(cat "$REDIS_PASSWORD_FILE")
[ -n "$password" ] || { echo "redis-entrypoint: $REDIS_PASSWORD_FILE is empty" >&2; exit 64; }
umask 077
conf=/run/redis/redis.conf
mkdir -p /run/redis
{
  echo "requirepass \"$password\""
  echo 'bind * -::*'
  echo 'protected-mode no'
  echo 'save ""'
  echo 'appendonly no'
} >"$conf"
exec redis-server "$conf" "$@"
