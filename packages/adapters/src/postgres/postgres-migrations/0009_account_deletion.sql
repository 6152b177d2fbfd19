-- Account deletion with cooling-off (spec 3): a pending deletion tombstones the organisation's profiles (kept
-- for restoring on undelete); the erasure scheduler claims due accounts by setting erasure_started_at.
ALTER TABLE profiles ADD COLUMN tombstoned_at timestamptz;
ALTER TABLE accounts ADD COLUMN erasure_started_at timestamptz;
ALTER TABLE accounts ADD COLUMN erased_at timestamptz;
CREATE INDEX accounts_deletion_due ON accounts (deletion_due_at)
  WHERE deletion_due_at IS NOT NULL AND erasure_started_at IS NULL;
