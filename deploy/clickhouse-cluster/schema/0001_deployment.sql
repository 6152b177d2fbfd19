-- Cluster variant of clickhouse-migrations/0001_deployment.sql.

CREATE TABLE IF NOT EXISTS svc.svc_store_facts_local ON CLUSTER svc_cluster
(
    name String,
    value String,
    updated_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/svc/svc_store_facts_local', '{replica}', updated_at)
ORDER BY name;

CREATE TABLE IF NOT EXISTS svc.svc_store_facts ON CLUSTER svc_cluster
AS svc.svc_store_facts_local
ENGINE = Distributed(svc_cluster, svc, svc_store_facts_local, cityHash64(name));

INSERT INTO svc.svc_store_facts (name, value) VALUES ('schema', 'svc');

INSERT INTO svc.schema_migrations (id) VALUES ('0001_deployment');
