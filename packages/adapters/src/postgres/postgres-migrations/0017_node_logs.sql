-- Node log batches and the offline hold (spec 2.3 node_queue_hours and log_destination; docs/node-link-protocol.md).
--
-- nodes.link_id names the node's open link (set by its hello, cleared when that same link closes): with
-- link_seen_at recent it tells every API server that the node is online. A link replaced on another server
-- clears nothing, because its close names an older link id.
ALTER TABLE nodes ADD COLUMN link_id uuid;

-- Ledger of the log batches stored for a node, so that a batch sent again after a lost acknowledgement is not
-- stored twice. A batch is claimed (stored_at null) before its rows are written to the columnar store and
-- marked stored after; a claim older than its lease is taken over (the server writing it died or failed).
CREATE TABLE node_log_batches (
  node_id uuid NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
  batch_id text NOT NULL,
  rows integer NOT NULL,
  claimed_at timestamptz NOT NULL,
  stored_at timestamptz,
  PRIMARY KEY (node_id, batch_id)
);
CREATE INDEX node_log_batches_stored ON node_log_batches (stored_at);

-- Query log rows the cloud edge recorded for a self-hosted or both profile while none of its nodes was online,
-- kept for the node until node_queue_hours after they were held. Delivered in seq order; a link claims rows
-- (claimed_by, claimed_until) while they await its acknowledgement, so two links never get the same row.
CREATE TABLE node_log_hold (
  seq bigserial PRIMARY KEY,
  profile_id text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  row_json jsonb NOT NULL,
  held_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  claimed_by uuid,
  claimed_until timestamptz
);
CREATE INDEX node_log_hold_profile ON node_log_hold (profile_id, seq);
CREATE INDEX node_log_hold_expiry ON node_log_hold (expires_at);
