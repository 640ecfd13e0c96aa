-- Webhook endpoints of users, deliveries of outbox messages to endpoints (the email
-- relay from configuration is endpoint 'relay'), every attempt, and email preferences
-- per event type. Times are milliseconds since the Unix epoch (UTC).
CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    event_types TEXT NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 1,
    disabled_reason TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_by_user ON webhook_endpoints (user_id);

CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY,
    outbox_id TEXT NOT NULL REFERENCES outbox (id),
    endpoint_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    claim_token TEXT,
    claimed_until BIGINT,
    last_status INTEGER,
    delivered_at BIGINT,
    created_at BIGINT NOT NULL,
    UNIQUE (outbox_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_by_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at);

CREATE TABLE webhook_attempts (
    id TEXT PRIMARY KEY,
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id),
    attempted_at BIGINT NOT NULL,
    http_status INTEGER,
    duration_ms BIGINT NOT NULL,
    error TEXT,
    excerpt TEXT
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, attempted_at);

CREATE TABLE notification_prefs (
    user_id TEXT NOT NULL REFERENCES users (id),
    event_type TEXT NOT NULL,
    email INTEGER NOT NULL,
    PRIMARY KEY (user_id, event_type)
);
