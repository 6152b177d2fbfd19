-- Webhook endpoints of an organisation (issue 40, ADR 0049). Secrets are sealed with the server key.
CREATE TABLE webhooks (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  url text NOT NULL CHECK (char_length(url) <= 2000),
  description text NOT NULL CHECK (char_length(description) <= 200),
  events text[] NOT NULL,
  enabled boolean NOT NULL,
  disabled_reason text CHECK (disabled_reason IN ('failing')),
  sealed_secret text NOT NULL,
  sealed_previous_secret text,
  previous_secret_expires_at timestamptz,
  failing_since timestamptz,
  -- A dispatcher serving this endpoint holds it until then; another server skips it meanwhile.
  leased_until timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhooks_org ON webhooks (org_id, created_at DESC, id DESC);

-- One message to one endpoint, written in the transaction of the change it announces (the webhook outbox);
-- `seq` orders an endpoint's deliveries, which are attempted one at a time, oldest first.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  org_id uuid NOT NULL,
  message_id text NOT NULL,
  event_type text NOT NULL,
  body text NOT NULL,
  occurred_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  response_status integer,
  duration_ms integer,
  last_error text,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_list ON webhook_deliveries (webhook_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, seq) WHERE status = 'pending';
