-- Cluster variant of clickhouse-migrations/0002_query_log.sql (test/deploy/clickhouse-cluster-schema.test.ts
-- checks that they agree).

CREATE TABLE IF NOT EXISTS svc.query_log_local ON CLUSTER svc_cluster
(
    profile_id LowCardinality(String),
    ts DateTime64(3, 'UTC') CODEC(Delta, LZ4),
    row_id UInt64,
    pop LowCardinality(String),
    node Nullable(UUID),
    device_id String,
    device_name String,
    client_ip String,
    transport LowCardinality(String),
    qname String,
    qtype UInt16,
    status LowCardinality(String),
    reason_list_id Nullable(UInt16),
    reason_list_name String,
    reason_rule String,
    operator_code LowCardinality(String),
    rcode UInt8,
    dnssec_validated Bool,
    cache_hit Bool,
    latency_us UInt32,
    answer_ips Array(String),
    retention_days UInt8
)
ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/svc/query_log_local', '{replica}')
PARTITION BY toYYYYMMDD(ts)
ORDER BY (profile_id, ts, row_id)
TTL toDateTime(ts) + toIntervalDay(retention_days);

CREATE TABLE IF NOT EXISTS svc.query_log ON CLUSTER svc_cluster
AS svc.query_log_local
ENGINE = Distributed(svc_cluster, svc, query_log_local, cityHash64(profile_id));

CREATE TABLE IF NOT EXISTS svc.query_totals_hourly_local ON CLUSTER svc_cluster
(
    profile_id LowCardinality(String),
    hour DateTime('UTC'),
    status LowCardinality(String),
    count UInt64
)
ENGINE = ReplicatedSummingMergeTree('/clickhouse/tables/{shard}/svc/query_totals_hourly_local', '{replica}', count)
PARTITION BY toYYYYMM(hour)
ORDER BY (profile_id, hour, status)
TTL hour + toIntervalDay(400);

CREATE TABLE IF NOT EXISTS svc.query_totals_hourly ON CLUSTER svc_cluster
AS svc.query_totals_hourly_local
ENGINE = Distributed(svc_cluster, svc, query_totals_hourly_local, cityHash64(profile_id));

CREATE TABLE IF NOT EXISTS svc.device_counts_hourly_local ON CLUSTER svc_cluster
(
    profile_id LowCardinality(String),
    hour DateTime('UTC'),
    device_id String,
    queries UInt64,
    blocked UInt64
)
ENGINE = ReplicatedSummingMergeTree('/clickhouse/tables/{shard}/svc/device_counts_hourly_local', '{replica}', (queries, blocked))
PARTITION BY toYYYYMM(hour)
ORDER BY (profile_id, hour, device_id)
TTL hour + toIntervalDay(8);

CREATE TABLE IF NOT EXISTS svc.device_counts_hourly ON CLUSTER svc_cluster
AS svc.device_counts_hourly_local
ENGINE = Distributed(svc_cluster, svc, device_counts_hourly_local, cityHash64(profile_id));

INSERT INTO svc.schema_migrations (id) VALUES ('0002_query_log');
