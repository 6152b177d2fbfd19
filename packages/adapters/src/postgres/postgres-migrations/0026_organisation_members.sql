-- Members of organisations (issue 39, ADR 0047): an account may belong to several organisations, each with a
-- role; its own organisation's membership is made at signup. Existing accounts become members of their own
-- organisation with the role they hold (every one is the owner).
CREATE TABLE memberships (
  org_id uuid NOT NULL REFERENCES organisations (id),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, account_id)
);
CREATE INDEX memberships_account ON memberships (account_id);
INSERT INTO memberships (org_id, account_id, role, created_at)
SELECT org_id, id, role, created_at FROM accounts WHERE role IN ('owner', 'admin', 'editor', 'viewer');

-- Invitations to join an organisation: the mailed token only as its keyed hash; valid 7 days, single use.
CREATE TABLE org_invitations (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organisations (id),
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
  token_hash text NOT NULL UNIQUE,
  invited_by text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX org_invitations_org ON org_invitations (org_id, created_at DESC);

-- The organisation a session acts in; null for the account's own.
ALTER TABLE sessions ADD COLUMN acting_org_id uuid REFERENCES organisations (id);
