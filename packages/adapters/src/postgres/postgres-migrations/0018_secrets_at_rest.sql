-- Secrets no longer kept in clear at rest. From this version the server seals every stored idempotent
-- response body with its secret box (some carry an API token secret or a node enrolment code) and clears the
-- body of a message once it is sent or given up (bodies carry single-use links). Rows written before it are
-- dealt with here: stored responses are dropped (a retry within the replay window of a request made before
-- the upgrade runs again instead of replaying), and the bodies of sent and given-up messages are cleared.
DELETE FROM idempotency_keys WHERE state = 'completed';
UPDATE mail_queue SET text_body = '', html_body = NULL WHERE sent_at IS NOT NULL OR given_up_at IS NOT NULL;
