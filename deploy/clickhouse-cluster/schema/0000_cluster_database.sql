-- Cluster variant of the svc ClickHouse schema (see deploy/README.md). Applied by the operator with
-- clickhouse-client against any one node, in file order, BEFORE the API servers start: on a cluster the
-- servers must not run their single-node migrations (packages/adapters/src/clickhouse/clickhouse-migrations/),
-- which would create plain MergeTree tables on whichever node they reached. The servers' own migration step
-- finds every id below already recorded in schema_migrations and applies nothing.
--
-- Layout: cluster `svc_cluster` (2 shards x 2 replicas, config/cluster.xml), ClickHouse Keeper for
-- replication. Each table is a Replicated* `<name>_local` table on every node plus a Distributed table under
-- the name the application uses, sharded by profile_id, so the application's SQL runs unchanged and every row
-- of a profile lives on one shard (SummingMergeTree totals then collapse within a shard).

CREATE DATABASE IF NOT EXISTS svc ON CLUSTER svc_cluster;

-- The application's migration ledger, shared by every node: CREATE TABLE IF NOT EXISTS from a server is then
-- a no-op, and the ids inserted at the end of each file below mark those migrations as applied.
CREATE TABLE IF NOT EXISTS svc.schema_migrations_local ON CLUSTER svc_cluster
(
    id String,
    applied_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/svc/schema_migrations_local', '{replica}')
ORDER BY id;

CREATE TABLE IF NOT EXISTS svc.schema_migrations ON CLUSTER svc_cluster
AS svc.schema_migrations_local
ENGINE = Distributed(svc_cluster, svc, schema_migrations_local, cityHash64(id));
