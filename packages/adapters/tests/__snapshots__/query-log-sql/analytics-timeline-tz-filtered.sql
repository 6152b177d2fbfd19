-- params: {"profile":"abc123","to_ms":1795406400000,"from_ms":1792814400000,"devices":["living-room-tv"],"statuses":["blocked","error"],"qtypes":[1,28],"lists":[1],"client_ip":"2001:db8::1","bucket":3600,"tz":"Asia/Kolkata"}
WITH toUnixTimestamp(ts) AS at_s,
timeZoneOffset(toDateTime(at_s, {tz:String})) AS at_offset,
at_s + at_offset AS wall_s,
intDiv(wall_s, 86400) * 86400 + intDiv(wall_s % 86400, {bucket:UInt32}) * {bucket:UInt32} AS boundary_s,
boundary_s - at_offset AS guess_s,
timeZoneOffset(toDateTime(guess_s, {tz:String})) AS guess_offset,
if(guess_offset = at_offset, guess_s, boundary_s - guess_offset) AS local_bucket
SELECT local_bucket AS bucket, status, count() AS count
FROM query_log PREWHERE profile_id = {profile:String} AND ts < fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC') AND ts >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC') WHERE device_id IN {devices:Array(String)} AND status IN {statuses:Array(String)} AND qtype IN {qtypes:Array(UInt16)} AND reason_list_id IN {lists:Array(UInt16)} AND toIPv6OrZero(client_ip) = toIPv6OrZero({client_ip:String}) GROUP BY bucket, status SETTINGS max_rows_to_read = 500000000, max_memory_usage = 2147483648, max_execution_time = 10, read_overflow_mode = 'throw', timeout_overflow_mode = 'throw';
