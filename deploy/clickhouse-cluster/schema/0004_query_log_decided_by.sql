-- Cluster variant of clickhouse-migrations/0004_query_log_decided_by.sql: the column that names the policy that
-- decided a query, added in the metadata of every replica (existing parts read '' without being rewritten;
-- running it again changes nothing), then on the Distributed table in front, whose columns are its own copy.

ALTER TABLE svc.query_log_local ON CLUSTER svc_cluster
    ADD COLUMN IF NOT EXISTS decided_by LowCardinality(String) DEFAULT '';

ALTER TABLE svc.query_log ON CLUSTER svc_cluster
    ADD COLUMN IF NOT EXISTS decided_by LowCardinality(String) DEFAULT '';

INSERT INTO svc.schema_migrations (id) VALUES ('0004_query_log_decided_by');
