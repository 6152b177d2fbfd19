-- The query log: one row per query of a profile whose log destination keeps rows in the cloud (cloud, both).
-- Columns follow QueryLogRow (packages/domain/src/query-log/query-log-row.ts). Ordered for per-profile time
-- scans (tail, ranges), partitioned by day, each row expiring after its profile's retention_days (1 to 90),
-- copied onto the row when written so that a later change of the setting applies to new rows only.
-- row_id is unique per row: the tie-break of keyset cursors among rows of the same millisecond.
CREATE TABLE IF NOT EXISTS query_log
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
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (profile_id, ts, row_id)
TTL toDateTime(ts) + toIntervalDay(retention_days);

-- statement
-- Hourly totals of every profile's queries by status, counted at the edge whatever the log destination
-- (spec 4.6 rule 1). Summed on merge, which is eventual: readers aggregate with sum(count) ... GROUP BY.
-- Kept 400 days, the widest range an hourly-totals query may ask for (spec section 8).
CREATE TABLE IF NOT EXISTS query_totals_hourly
(
    profile_id LowCardinality(String),
    hour DateTime('UTC'),
    status LowCardinality(String),
    count UInt64
)
ENGINE = SummingMergeTree(count)
PARTITION BY toYYYYMM(hour)
ORDER BY (profile_id, hour, status)
TTL hour + toIntervalDay(400);

-- statement
-- Hourly query and block counts per device, for the devices' queries_24h and blocked_24h (spec 2.5), counted
-- at the edge for every destination like the totals. Readers sum(queries), sum(blocked) over the hours.
CREATE TABLE IF NOT EXISTS device_counts_hourly
(
    profile_id LowCardinality(String),
    hour DateTime('UTC'),
    device_id String,
    queries UInt64,
    blocked UInt64
)
ENGINE = SummingMergeTree((queries, blocked))
PARTITION BY toYYYYMM(hour)
ORDER BY (profile_id, hour, device_id)
TTL hour + toIntervalDay(8);
