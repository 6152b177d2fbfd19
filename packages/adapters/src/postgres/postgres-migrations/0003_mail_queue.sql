-- Outgoing mail queue: rows written in the transaction that decides to send them, sent after commit by the
-- mail dispatcher (at least once), so a request never waits on SMTP. A failed send is retried with exponential
-- backoff (next_attempt_at) until it succeeds or the dispatcher gives up (given_up_at). A dispatcher claims a
-- row by setting a lease (locked_until) with FOR UPDATE SKIP LOCKED, so several servers share the queue
-- without sending a row twice; the lease of a server that died mid-send expires and the row is sent again.
-- Sent rows are purged after a day and given-up rows after a week, since bodies carry single-use links.
CREATE TABLE mail_queue (
  id bigserial PRIMARY KEY,
  recipient text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  last_error text,
  sent_at timestamptz,
  given_up_at timestamptz
);
CREATE INDEX mail_queue_due ON mail_queue (next_attempt_at) WHERE sent_at IS NULL AND given_up_at IS NULL;
