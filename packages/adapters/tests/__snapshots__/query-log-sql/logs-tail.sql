-- params: {"profile":"abc123","to_ms":1795406400000,"limit":100,"window_ms":1795320000000}
SELECT profile_id, ts, toString(row_id) AS row_key, pop, node, device_id, device_name, client_ip,
transport, qname, qtype, status, reason_list_id, reason_list_name, reason_rule, operator_code, rcode,
dnssec_validated, cache_hit, latency_us, answer_ips, decided_by FROM query_log PREWHERE profile_id = {profile:String} AND ts < fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC') AND ts >= fromUnixTimestamp64Milli({window_ms:Int64}, 'UTC') WHERE 1
ORDER BY ts DESC, row_id DESC LIMIT {limit:UInt32} SETTINGS max_rows_to_read = 500000000, max_memory_usage = 2147483648, max_execution_time = 10, read_overflow_mode = 'throw', timeout_overflow_mode = 'throw';

-- params: {"profile":"abc123","to_ms":1795406400000,"limit":100,"before_ms":1795320000000}
SELECT count() AS rows, toUnixTimestamp64Milli(min(ts)) AS oldest_ms FROM (
SELECT ts FROM query_log
PREWHERE profile_id = {profile:String} AND ts < fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC') AND ts < fromUnixTimestamp64Milli({before_ms:Int64}, 'UTC')
WHERE 1 ORDER BY ts DESC LIMIT {limit:UInt32}) SETTINGS max_rows_to_read = 500000000, max_memory_usage = 2147483648, max_execution_time = 10, read_overflow_mode = 'throw', timeout_overflow_mode = 'throw';
