-- GDPR data exports: built in the background by whichever API server claims them (row lock with SKIP LOCKED,
-- then a lease), the archive kept here, not on any server's disk, and removed when the export expires.
CREATE TABLE data_exports (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  org_id uuid NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'ready', 'failed', 'expired')),
  created_at timestamptz NOT NULL,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  completed_at timestamptz,
  expires_at timestamptz,
  size_bytes bigint,
  archive text,
  CHECK (archive IS NULL OR status = 'ready')
);
-- One export in progress per account: the insert that would make a second one does nothing (409).
CREATE UNIQUE INDEX data_exports_one_pending ON data_exports (account_id) WHERE status = 'pending';
CREATE INDEX data_exports_by_account ON data_exports (account_id, created_at DESC, id DESC);
CREATE INDEX data_exports_waiting ON data_exports (created_at) WHERE status = 'pending';
CREATE INDEX data_exports_expiring ON data_exports (expires_at) WHERE status = 'ready';
