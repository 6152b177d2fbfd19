-- Second factors (spec 5.5): TOTP secrets sealed with the server key, the last accepted time step (no replay),
-- recovery codes as keyed hashes, restricted sessions, and recovery links.
ALTER TABLE accounts
  ADD COLUMN totp_secret text,
  ADD COLUMN totp_pending_secret text,
  ADD COLUMN totp_enabled_at timestamptz,
  ADD COLUMN totp_last_step bigint;

CREATE TABLE recovery_codes (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (account_id, code_hash)
);

ALTER TABLE sessions ADD COLUMN restricted boolean NOT NULL DEFAULT false;

ALTER TABLE one_time_tokens DROP CONSTRAINT one_time_tokens_purpose_check;
ALTER TABLE one_time_tokens
  ADD CONSTRAINT one_time_tokens_purpose_check CHECK (purpose IN ('verify', 'reset', 'waitlist', 'recovery'));
