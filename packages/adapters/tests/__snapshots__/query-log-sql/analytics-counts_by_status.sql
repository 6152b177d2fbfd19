-- params: {"profile":"abc123","to_s":1795406400,"from_s":1792814400}
SELECT status, sum(count) AS count FROM query_totals_hourly WHERE profile_id = {profile:String} AND hour < toDateTime({to_s:Int64}, 'UTC') AND hour >= toDateTime({from_s:Int64}, 'UTC')
GROUP BY status SETTINGS max_rows_to_read = 500000000, max_memory_usage = 2147483648, max_execution_time = 10, read_overflow_mode = 'throw', timeout_overflow_mode = 'throw';
