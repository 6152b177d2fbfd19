-- The policy that decided a query, beyond what its reason code says (issue 38, ADR 0045): `paused`,
-- `allowance`, `schedule:<name>`, `device:<id>`; '' when the reason code says it all. A paused profile's query
-- is logged allowed with reason_code none (ADR 0041): decided_by = 'paused' tells it apart.
--
-- A column with a default is added to the table's metadata only: existing parts read '' without being rewritten,
-- and IF NOT EXISTS makes running it again change nothing.
ALTER TABLE query_log ADD COLUMN IF NOT EXISTS decided_by LowCardinality(String) DEFAULT '';
