-- Cluster variant of clickhouse-migrations/0003_query_log_low_cardinality.sql: the query log's repeated strings
-- as LowCardinality, in place on every replica (rows inserted meanwhile are kept; running it again changes
-- nothing), then the same types on the Distributed table in front, whose columns are its own copy.

ALTER TABLE svc.query_log_local ON CLUSTER svc_cluster
    MODIFY COLUMN device_id LowCardinality(String),
    MODIFY COLUMN device_name LowCardinality(String),
    MODIFY COLUMN client_ip LowCardinality(String),
    MODIFY COLUMN qname LowCardinality(String),
    MODIFY COLUMN reason_list_name LowCardinality(String),
    MODIFY COLUMN reason_rule LowCardinality(String)
SETTINGS mutations_sync = 2;

ALTER TABLE svc.query_log ON CLUSTER svc_cluster
    MODIFY COLUMN device_id LowCardinality(String),
    MODIFY COLUMN device_name LowCardinality(String),
    MODIFY COLUMN client_ip LowCardinality(String),
    MODIFY COLUMN qname LowCardinality(String),
    MODIFY COLUMN reason_list_name LowCardinality(String),
    MODIFY COLUMN reason_rule LowCardinality(String);

INSERT INTO svc.schema_migrations (id) VALUES ('0003_query_log_low_cardinality');
