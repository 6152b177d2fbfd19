-- Devices (spec 2.5, 4.3): one row per (profile, id), kept current from resolvers' sightings; forgetting a
-- device deletes its row, overrides with it. Ids are compared in code-unit order ("C"), as the domain sorts.
CREATE TABLE devices (
  profile_id text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  id text COLLATE "C" NOT NULL CHECK (char_length(id) BETWEEN 1 AND 64),
  name text NOT NULL CHECK (char_length(name) <= 64),
  display_name text CHECK (char_length(display_name) BETWEEN 1 AND 64),
  kind text NOT NULL CHECK (kind IN ('phone', 'laptop', 'tv', 'router', 'other')),
  notes text NOT NULL CHECK (char_length(notes) <= 1000),
  identification text NOT NULL CHECK (identification IN ('doh_path', 'sni', 'unknown')),
  transport_last text CHECK (transport_last IN ('doh', 'doh3', 'dot', 'doq')),
  first_seen timestamptz NOT NULL,
  last_seen timestamptz NOT NULL,
  PRIMARY KEY (profile_id, id)
);
CREATE INDEX devices_recent ON devices (profile_id, last_seen DESC, id DESC);

-- List reports (spec 2.6, 3, 4.5). They outlive the profile reported on (the operators' queue keeps them, and
-- the per-account limit keeps counting them), so profile_id is not a foreign key.
CREATE TABLE list_reports (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organisations (id),
  profile_id text NOT NULL,
  account_id uuid NOT NULL,
  domain text NOT NULL CHECK (char_length(domain) BETWEEN 1 AND 253),
  list_id integer NOT NULL CHECK (list_id BETWEEN 1 AND 65535),
  list_version bigint,
  kind text NOT NULL CHECK (kind IN ('false_positive', 'false_negative')),
  note text NOT NULL CHECK (char_length(note) <= 500),
  status text NOT NULL CHECK (status IN ('open', 'accepted', 'rejected')),
  resolution_note text NOT NULL,
  resolved_at timestamptz,
  created_at timestamptz NOT NULL,
  triage_due_at timestamptz NOT NULL
);
CREATE INDEX list_reports_profile ON list_reports (org_id, profile_id, created_at DESC, id DESC);
CREATE INDEX list_reports_account ON list_reports (account_id, created_at DESC);
CREATE INDEX list_reports_triage ON list_reports (status, triage_due_at);

-- Audit log (spec 6.2): append-only, written in the transaction of the change it records. The trigger
-- refuses updates and deletions, so an entry, once committed, is never changed.
CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id uuid NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  target text NOT NULL,
  details jsonb NOT NULL,
  at timestamptz NOT NULL,
  client_ip text,
  request_id text
);
CREATE INDEX audit_log_org ON audit_log (org_id, at DESC, id DESC);
CREATE INDEX audit_log_action ON audit_log (action, at DESC, id DESC);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
