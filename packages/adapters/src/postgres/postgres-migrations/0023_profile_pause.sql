-- The owner's timed pause of a profile's own filtering (issue 38): its end, exclusive; null when not paused.
-- Kept after it passes: edges end a pause by their own clocks, so nothing has to clear it.
ALTER TABLE profiles ADD COLUMN paused_until timestamptz;
