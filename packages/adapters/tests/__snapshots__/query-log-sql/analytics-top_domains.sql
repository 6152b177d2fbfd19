-- params: {"profile":"abc123","to_ms":1795406400000,"from_ms":1792814400000,"limit":10}
SELECT qname AS key, count() AS count
FROM query_log PREWHERE profile_id = {profile:String} AND ts < fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC') AND ts >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC') WHERE 1 AND 1
GROUP BY key ORDER BY count DESC, key ASC LIMIT {limit:UInt32} SETTINGS max_rows_to_read = 500000000, max_memory_usage = 2147483648, max_execution_time = 10, read_overflow_mode = 'throw', timeout_overflow_mode = 'throw';
