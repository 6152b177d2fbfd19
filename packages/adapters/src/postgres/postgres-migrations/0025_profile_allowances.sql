-- Issue 38: a profile's timed allowances, kept with the profile row (ADR 0044): every allowance write is a
-- versioned write of the profile whose document carries them, at most 100 run at once, and each write drops the
-- expired ones. Reads filter by the clock, so an expired allowance is never shown nor published.
ALTER TABLE profiles ADD COLUMN allowances jsonb NOT NULL DEFAULT '[]'::jsonb;
