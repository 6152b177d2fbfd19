-- Issue 38: a profile's bedtime (one of its schedules, or null) and what each schedule limits or lifts,
-- written with the schedules by PUT /v1/profiles/{id}/schedules and carried in the profile's documents.
ALTER TABLE profiles ADD COLUMN bedtime text;
ALTER TABLE profiles ADD COLUMN schedule_assignments jsonb NOT NULL DEFAULT '[]'::jsonb;
