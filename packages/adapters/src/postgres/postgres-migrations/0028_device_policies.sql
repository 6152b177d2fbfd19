-- Issue 38: what a device overrides of its profile's policy (DevicePolicy, `{}` inherits everything) and the end
-- of its timed pause, kept on the device row so that forgetting the device removes them. Every write of either
-- is a versioned write of the profile, whose documents carry the devices that override something.
ALTER TABLE devices ADD COLUMN policy jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE devices ADD COLUMN paused_until timestamptz;
