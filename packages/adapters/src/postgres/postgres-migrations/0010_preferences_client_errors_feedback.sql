-- Account preferences (spec 2.2): only the keys an account has set; reads fill defaults.
CREATE TABLE account_preferences (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  preferences jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Dashboard error reports (spec 2.10, 4.11): scrubbed, kept 30 days, deleted with the account.
CREATE TABLE client_errors (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  org_id uuid NOT NULL,
  actor text NOT NULL,
  message text NOT NULL,
  stack text,
  url text,
  user_agent text,
  dashboard_version text,
  sampled_rate double precision,
  kind text,
  name text,
  created_at timestamptz NOT NULL
);
CREATE INDEX client_errors_created ON client_errors (created_at DESC, id DESC);

-- Dashboard feedback (POST /v1/feedback); the operator view reads the last 365 days.
CREATE TABLE feedback (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  org_id uuid NOT NULL,
  actor text NOT NULL,
  message text NOT NULL,
  rating integer,
  url text,
  created_at timestamptz NOT NULL
);
CREATE INDEX feedback_created ON feedback (created_at DESC, id DESC);
