-- The list pipeline (issue 29): compiled list artifacts stored content-addressed in chunks (as data exports
-- are), each source's last fetch and last good artifact, each list's versions, and the claim that lets one
-- server at a time refresh. Also the operator file versions each node acknowledged, and the hourly totals
-- nodes reported.
CREATE TABLE list_artifacts (
  sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
  compressed_bytes bigint NOT NULL CHECK (compressed_bytes >= 0),
  chunk_count integer NOT NULL CHECK (chunk_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The gzip-compressed bytes of an artifact, in order.
CREATE TABLE list_artifact_chunks (
  sha256 text NOT NULL REFERENCES list_artifacts (sha256) ON DELETE CASCADE,
  seq integer NOT NULL CHECK (seq >= 0),
  bytes bytea NOT NULL,
  PRIMARY KEY (sha256, seq)
);

CREATE TABLE list_sources (
  source_id text PRIMARY KEY,
  url text NOT NULL,
  etag text,
  last_modified text,
  artifact jsonb,
  checked_at timestamptz,
  status text CHECK (status IN ('ok', 'not_modified', 'failed')),
  http_status integer,
  error text,
  failures integer NOT NULL DEFAULT 0,
  ok_at timestamptz,
  changed_at timestamptz
);

CREATE TABLE list_versions (
  list_id integer NOT NULL CHECK (list_id BETWEEN 1 AND 65535),
  version integer NOT NULL CHECK (version >= 1),
  sha256 text NOT NULL,
  size_bytes bigint NOT NULL,
  entries integer NOT NULL,
  exceptions integer NOT NULL,
  sources jsonb NOT NULL,
  compiled_at timestamptz NOT NULL,
  PRIMARY KEY (list_id, version)
);

CREATE TABLE list_refresh (
  id smallint PRIMARY KEY CHECK (id = 1),
  holder text,
  held_until timestamptz,
  finished_at timestamptz
);
INSERT INTO list_refresh (id) VALUES (1);

-- The version of each operator file a node acknowledged over its link (`{"operator_blocks": 3, ...}`).
ALTER TABLE nodes ADD COLUMN operator_files jsonb NOT NULL DEFAULT '{}';

-- What each node reported of its hourly totals, per run of the node software (counts only grow within a run):
-- a report adds to the cloud's hourly totals only what grew since (docs/node-link-protocol.md).
CREATE TABLE node_hourly_totals (
  node_id uuid NOT NULL,
  run text NOT NULL,
  hour timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('allowed', 'blocked', 'rewritten', 'error')),
  count bigint NOT NULL CHECK (count >= 0),
  PRIMARY KEY (node_id, run, hour, status)
);
CREATE INDEX node_hourly_totals_hour ON node_hourly_totals (hour);
