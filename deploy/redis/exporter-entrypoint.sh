#!/bin/sh
# The Redis exporter with the password from REDIS_PASSWORD_FILE (a Docker secret): read into this process's own
# environment, never the container's.
set -eu
if [ -n "${REDIS_PASSWORD_FILE:-}" ]; then REDIS_PASSWORD=$(cat "$REDIS_PASSWORD_FILE"); export REDIS_PASSWORD; fi
exec /usr/bin/prometheus-redis-exporter "$@"
