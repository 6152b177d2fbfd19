-- Links are capped per account (its organisation) as well as per profile: the count behind the cap reads the
-- organisation's links at every new link.
CREATE INDEX linked_ips_org ON linked_ips (org_id);
