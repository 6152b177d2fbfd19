-- Organisations and accounts (spec 2.1). Emails are stored lower case; passwords only as argon2id hashes.
CREATE TABLE organisations (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organisations (id),
  role text NOT NULL,
  email text NOT NULL UNIQUE,
  email_verified_at timestamptz,
  password_hash text,
  plan text NOT NULL,
  mfa boolean NOT NULL DEFAULT false,
  is_admin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  deletion_requested_at timestamptz,
  deletion_due_at timestamptz,
  account_exists_mail_at timestamptz
);
CREATE INDEX accounts_org ON accounts (org_id);

-- Single-use emailed tokens (verification, password reset, waitlist confirmation), as keyed hashes.
CREATE TABLE one_time_tokens (
  purpose text NOT NULL CHECK (purpose IN ('verify', 'reset', 'waitlist')),
  hash text NOT NULL,
  account_id uuid REFERENCES accounts (id) ON DELETE CASCADE,
  email text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (purpose, hash)
);
CREATE INDEX one_time_tokens_email ON one_time_tokens (purpose, email) WHERE used_at IS NULL;

-- Sessions (spec 5.2): the current token and the one it replaced at renewal, as keyed hashes.
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  token_issued_at timestamptz NOT NULL,
  previous_token_hash text,
  previous_valid_until timestamptz,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  user_agent text NOT NULL,
  ip text NOT NULL,
  method text NOT NULL,
  strong boolean NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_previous_token ON sessions (previous_token_hash) WHERE previous_token_hash IS NOT NULL;
CREATE INDEX sessions_account ON sessions (account_id, created_at DESC);

-- API tokens (spec 5.3): the secret only as a keyed hash.
CREATE TABLE api_tokens (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  org_id uuid NOT NULL REFERENCES organisations (id),
  name text NOT NULL,
  scopes text[] NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_tokens_account ON api_tokens (account_id, created_at DESC, id DESC) WHERE revoked_at IS NULL;

-- Invite codes for signup mode invite, as keyed hashes.
CREATE TABLE invites (
  id uuid PRIMARY KEY,
  code_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  max_uses integer NOT NULL CHECK (max_uses > 0),
  uses integer NOT NULL DEFAULT 0,
  expires_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL
);

CREATE TABLE waitlist (
  email text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  confirmed_at timestamptz
);
