-- The query log's repeated strings as LowCardinality: a profile's names, devices, client addresses and reasons
-- repeat a few thousand values over millions of rows, so grouping by them (top_domains, top_blocked,
-- top_devices) works on dictionary codes, substring search and address filters test each distinct value once,
-- and the columns take less room.
--
-- In place (ALTER … MODIFY COLUMN rewrites every part, the statement waiting until it has), rather than by
-- INSERT SELECT into a new table and a swap: rows inserted while it runs are kept (new parts are written with
-- the new types, older ones are rewritten), nothing is copied twice, and running it again changes nothing.
ALTER TABLE query_log
    MODIFY COLUMN device_id LowCardinality(String),
    MODIFY COLUMN device_name LowCardinality(String),
    MODIFY COLUMN client_ip LowCardinality(String),
    MODIFY COLUMN qname LowCardinality(String),
    MODIFY COLUMN reason_list_name LowCardinality(String),
    MODIFY COLUMN reason_rule LowCardinality(String)
SETTINGS mutations_sync = 2;
