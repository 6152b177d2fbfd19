-- Facts about this store itself (schema generation, creation time); later migrations add the query log,
-- hourly totals and device sightings.
CREATE TABLE IF NOT EXISTS svc_store_facts
(
    name String,
    value String,
    updated_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY name;

-- statement
INSERT INTO svc_store_facts (name, value) VALUES ('schema', 'svc');
