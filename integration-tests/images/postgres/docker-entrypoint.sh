#!/bin/bash
# The part of the official image's entrypoint the tests rely on: as root, hand the data directory
# to the postgres user and run again as that user; on an empty data directory, initdb with
# POSTGRES_USER and POSTGRES_PASSWORD, accept password logins from any host, start a server on the
# socket only to create POSTGRES_DB, stop it; then exec the command (postgres ...). A restarted
# container (after docker kill) finds its data directory and goes straight to the command: the
# server runs its crash recovery.
set -euo pipefail

if [ "${1:0:1}" = '-' ]; then
  set -- postgres "$@"
fi

if [ "$1" = postgres ] && [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$BASH_SOURCE" "$@"
fi

if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_USER:=postgres}"
  : "${POSTGRES_DB:=$POSTGRES_USER}"
  if [ -n "${POSTGRES_PASSWORD:-}" ]; then
    initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
      -E UTF8 --locale=C.UTF-8 --no-sync -D "$PGDATA" >/dev/null
    auth="${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}"
  else
    initdb --username="$POSTGRES_USER" -E UTF8 --locale=C.UTF-8 --no-sync -D "$PGDATA" >/dev/null
    auth="${POSTGRES_HOST_AUTH_METHOD:-trust}"
  fi
  printf 'host all all all %s\n' "$auth" >> "$PGDATA/pg_hba.conf"
  printf "listen_addresses = '*'\n" >> "$PGDATA/postgresql.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p 5432" -w start
  if [ "$POSTGRES_DB" != postgres ]; then
    psql -v ON_ERROR_STOP=1 -q --username="$POSTGRES_USER" --dbname=postgres \
      -c "create database \"$POSTGRES_DB\""
  fi
  pg_ctl -D "$PGDATA" -m fast -w stop
fi

exec "$@"
