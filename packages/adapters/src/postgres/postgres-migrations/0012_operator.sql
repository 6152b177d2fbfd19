-- Operator surface (spec 2.8, 2.9, 3, 4.10, 6.3). Every change to operator blocks or source blocks locks its
-- file's row first, so the changes of one file serialise across servers and its version goes up by exactly one
-- per change; the row also keeps the document last published.
CREATE TABLE operator_files (
  name text PRIMARY KEY CHECK (name IN ('operator_blocks', 'operator_sources')),
  version bigint NOT NULL CHECK (version >= 0),
  document jsonb,
  updated_at timestamptz
);
INSERT INTO operator_files (name, version) VALUES ('operator_blocks', 0), ('operator_sources', 0);

-- Operator domain blocks. A live entry (neither removed nor marked expired) holds its pattern: the partial
-- unique index refuses a second one however the creates race (409 block_exists).
CREATE TABLE operator_blocks (
  id uuid PRIMARY KEY,
  pattern text NOT NULL CHECK (char_length(pattern) BETWEEN 1 AND 300),
  reason_code text NOT NULL CHECK (reason_code IN ('legal_order', 'abuse', 'csam')),
  public_ref text NOT NULL CHECK (char_length(public_ref) <= 100),
  note text NOT NULL CHECK (char_length(note) <= 1000),
  pops text[] NOT NULL,
  jurisdictions text[] NOT NULL,
  expires_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  removed_by text,
  removed_at timestamptz,
  expired_at timestamptz,
  CHECK (reason_code <> 'csam' OR (cardinality(pops) = 0 AND cardinality(jurisdictions) = 0))
);
CREATE UNIQUE INDEX operator_blocks_live_pattern ON operator_blocks (pattern)
  WHERE removed_at IS NULL AND expired_at IS NULL;
CREATE INDEX operator_blocks_recent ON operator_blocks (created_at DESC, id DESC);

-- Abusive source prefixes (masked CIDR text), always with an expiry.
CREATE TABLE source_blocks (
  id uuid PRIMARY KEY,
  cidr text NOT NULL CHECK (char_length(cidr) BETWEEN 1 AND 64),
  reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 1000),
  pops text[] NOT NULL,
  jurisdictions text[] NOT NULL,
  expires_at timestamptz NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  removed_by text,
  removed_at timestamptz,
  expired_at timestamptz
);
CREATE INDEX source_blocks_recent ON source_blocks (created_at DESC, id DESC);

-- The operator's reason for a profile's suspension (the flag itself is profiles.suspended); operator-only.
CREATE TABLE profile_suspensions (
  profile_id text PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (char_length(reason) <= 1000),
  suspended_by text NOT NULL,
  suspended_at timestamptz NOT NULL
);
