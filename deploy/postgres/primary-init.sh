#!/bin/sh
# Runs once, when the primary's data directory is first initialised (docker-entrypoint-initdb.d): a role for
# streaming replication and the pg_hba line that lets the replica connect with it.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<SQL
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD '${POSTGRES_REPLICATION_PASSWORD}';
SQL
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
