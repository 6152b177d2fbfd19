#!/bin/sh
# The hot standby: on first start, copies the primary with pg_basebackup (-R writes standby.signal and the
# connection to follow, -C -S creates a replication slot so the primary keeps WAL the replica still needs),
# then runs PostgreSQL as a read-only streaming replica. svc itself writes and reads through the primary only
# (DATABASE_URL); the replica is for failover and for reporting reads outside svc.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -h postgres-primary -U replicator; do sleep 1; done
  PGPASSWORD="$POSTGRES_REPLICATION_PASSWORD" pg_basebackup -h postgres-primary -U replicator \
    -D "$PGDATA" -R -X stream -C -S replica_1
  chmod 0700 "$PGDATA"
fi
exec postgres -c hot_standby=on
