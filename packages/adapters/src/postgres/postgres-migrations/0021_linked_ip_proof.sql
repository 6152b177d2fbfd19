-- A linked address is active (published to the edge, attributing Do53 queries) only once proven by a request
-- from it; until then it is a pending claim, and any number of claims of one address may wait side by side. So
-- the address is unique among active links only. Links made before this rule stay active (their owners would
-- otherwise lose filtering without notice); empty DDNS slots have nothing proven yet and are pending.
ALTER TABLE linked_ips ADD COLUMN state text NOT NULL DEFAULT 'active'
  CHECK (state IN ('pending', 'active'));
UPDATE linked_ips SET state = 'pending' WHERE ip IS NULL;
ALTER TABLE linked_ips ALTER COLUMN state DROP DEFAULT;
ALTER TABLE linked_ips ADD CONSTRAINT linked_ips_active_has_ip CHECK (state = 'pending' OR ip IS NOT NULL);
DROP INDEX linked_ips_ip;
CREATE UNIQUE INDEX linked_ips_active_ip ON linked_ips (ip) WHERE state = 'active';
-- Expired claims are swept per organisation by creation time.
CREATE INDEX linked_ips_pending ON linked_ips (org_id, created_at) WHERE state = 'pending';
