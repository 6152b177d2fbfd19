-- params: {"profile":"abc123","to_s":1795406400,"from_s":1792814400,"bucket":86400,"tz":"Europe/Berlin"}
WITH toUnixTimestamp(hour) + 3599 AS at_s,
timeZoneOffset(toDateTime(at_s, {tz:String})) AS at_offset,
at_s + at_offset AS wall_s,
intDiv(wall_s, 86400) * 86400 + intDiv(wall_s % 86400, {bucket:UInt32}) * {bucket:UInt32} AS boundary_s,
boundary_s - at_offset AS guess_s,
timeZoneOffset(toDateTime(guess_s, {tz:String})) AS guess_offset,
if(guess_offset = at_offset, guess_s, boundary_s - guess_offset) AS local_bucket
SELECT intDiv(local_bucket, 3600) * 3600 AS bucket, status,
sum(count) AS count
FROM query_totals_hourly WHERE profile_id = {profile:String} AND hour < toDateTime({to_s:Int64}, 'UTC') AND hour >= toDateTime({from_s:Int64}, 'UTC') GROUP BY bucket, status SETTINGS max_rows_to_read = 500000000, max_memory_usage = 2147483648, max_execution_time = 10, read_overflow_mode = 'throw', timeout_overflow_mode = 'throw';
