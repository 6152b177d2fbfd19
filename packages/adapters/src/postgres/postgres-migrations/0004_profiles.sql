-- Profiles (spec 2.3). Configuration sections are JSON documents validated by the domain's schemas; the
-- version is bumped by exactly one per write under the row lock.
CREATE TABLE profiles (
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9]{6}$' AND id <> '000000'),
  org_id uuid NOT NULL REFERENCES organisations (id),
  name text NOT NULL,
  version integer NOT NULL CHECK (version > 0),
  security jsonb NOT NULL,
  parental jsonb NOT NULL,
  settings jsonb NOT NULL,
  rules jsonb NOT NULL,
  lists integer[] NOT NULL,
  suspended boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX profiles_org ON profiles (org_id, created_at DESC, id DESC);
