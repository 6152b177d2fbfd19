#!/bin/sh
# Applies the cluster schema, in file order, through one ClickHouse node (ON CLUSTER spreads the DDL).
# Usage: CLICKHOUSE_HOST=clickhouse-s1r1 CLICKHOUSE_PASSWORD=… ./apply-schema.sh
# Re-running is safe for the CREATE statements (IF NOT EXISTS); the INSERTs into schema_migrations and
# svc_store_facts then add duplicate rows, which the application tolerates (it reads the ids as a set).
set -eu
cd "$(dirname "$0")/schema"
for file in $(ls *.sql | sort); do
  echo "applying $file"
  clickhouse-client --host "${CLICKHOUSE_HOST:-clickhouse-s1r1}" --user "${CLICKHOUSE_USER:-default}" \
    --password "${CLICKHOUSE_PASSWORD:-}" --multiquery < "$file"
done
