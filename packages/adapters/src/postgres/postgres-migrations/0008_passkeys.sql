-- Passkeys (spec 5.5.1): WebAuthn credentials with their COSE public key and signature counter; the
-- authenticator's credential id is unique across accounts.
CREATE TABLE passkeys (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,
  public_key bytea NOT NULL,
  counter bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
  transports text[] NOT NULL DEFAULT '{}',
  aaguid text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX passkeys_account ON passkeys (account_id, created_at, id);

-- Single-use WebAuthn challenges (two minutes), as keyed hashes; a registration challenge belongs to the
-- session that asked for it.
CREATE TABLE webauthn_challenges (
  challenge_hash text PRIMARY KEY,
  ceremony text NOT NULL CHECK (ceremony IN ('registration', 'authentication')),
  session_id uuid REFERENCES sessions (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);
