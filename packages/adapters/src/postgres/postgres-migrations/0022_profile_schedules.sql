-- Profile schedules and time zone (issue 38, ADR 0039). Schedules are named weekly windows, replaced together by
-- PUT /v1/profiles/{id}/schedules and carried whole in the profile's edge document: one jsonb array, like rules.
ALTER TABLE profiles ADD COLUMN schedules jsonb NOT NULL DEFAULT '[]'::jsonb;
-- Profiles made before settings.time_zone read UTC, the default of new ones; the adapter also reads a row
-- without it as UTC, so a writer that predates this migration cannot leave a profile without a zone.
UPDATE profiles SET settings = settings || '{"time_zone": "UTC"}'::jsonb WHERE NOT settings ? 'time_zone';
