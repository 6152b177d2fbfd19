-- Self-hosted nodes of profiles (spec 1.3, 3, 4.13, 5.1). Enrolment codes and node tokens are never stored, only
-- their keyed hashes: the enrolment hash stays after use so a second use is told apart (token_used); a rotation
-- keeps the replaced token's hash with the end of its grace (null until the new token is first used).
CREATE TABLE nodes (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL,
  profile_id text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  name text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'enrolled', 'revoked')),
  enrolment_lookup text NOT NULL,
  enrolment_expires_at timestamptz NOT NULL,
  token_lookup text,
  previous_token_lookup text,
  previous_valid_until timestamptz,
  token_rotated_at timestamptz,
  software_version text,
  shapes jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  enrolled_at timestamptz,
  revoked_at timestamptz,
  last_seen_at timestamptz
);
CREATE UNIQUE INDEX nodes_enrolment_lookup ON nodes (enrolment_lookup);
CREATE UNIQUE INDEX nodes_token_lookup ON nodes (token_lookup);
CREATE UNIQUE INDEX nodes_previous_token_lookup ON nodes (previous_token_lookup);
CREATE INDEX nodes_profile ON nodes (profile_id, created_at DESC, id DESC);
