-- Presence and offline alerts of self-hosted nodes (spec 3, 6.4, 8). A link lives on one API server, so each
-- server records the link's hello and heartbeats here: a node whose link was heard within the alert delay is
-- online on some server, and a server that dies without closing its links leaves link_seen_at stale, so its
-- nodes read offline after the delay. offline_alerted_at marks an offline email sent and not yet followed by
-- its back email; alert_pair_at is when the last pair began (at most one pair per node every 6 h).
ALTER TABLE nodes
  ADD COLUMN link_seen_at timestamptz,
  ADD COLUMN offline_alerted_at timestamptz,
  ADD COLUMN alert_pair_at timestamptz;
CREATE INDEX nodes_link_seen ON nodes (link_seen_at) WHERE state = 'enrolled';
