-- Linked IPv4 addresses of profiles (spec 1.5, 4.4). An address is linked to at most one profile anywhere: the
-- unique index decides races between concurrent links (NULLs, the empty DDNS slots, never collide). DDNS tokens
-- are derived from the server key and never stored; only their keyed hash is, to find a presented token.
CREATE TABLE linked_ips (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL,
  profile_id text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  ip text,
  ddns boolean NOT NULL,
  ddns_generation integer NOT NULL CHECK (ddns_generation > 0),
  ddns_lookup text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX linked_ips_ip ON linked_ips (ip);
CREATE UNIQUE INDEX linked_ips_ddns_lookup ON linked_ips (ddns_lookup);
CREATE INDEX linked_ips_profile ON linked_ips (profile_id, created_at DESC, id DESC);
