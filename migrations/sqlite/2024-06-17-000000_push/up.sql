-- Web push subscriptions (RFC 8030): one row per browser (device) of a user, with the
-- push service's endpoint URL, the browser's keys for the payload's encryption (RFC
-- 8291: `p256dh`, the uncompressed P-256 public key, and `auth`, 16 bytes, both
-- base64url), a label the user chose, and the JSON list of notification kinds the
-- device wants. An endpoint belongs to one subscription at a time. Deliveries to a
-- subscription are rows of webhook_deliveries whose endpoint_id is 'push:' + its id.
CREATE TABLE push_subscriptions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    label TEXT NOT NULL,
    kinds TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_by_user ON push_subscriptions (user_id, created_at, id);
