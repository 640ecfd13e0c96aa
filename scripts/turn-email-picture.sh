#!/usr/bin/env bash
# Renews the pictures of the turn email:
# - docs/turn-email.png: the HTML part of a real turn email (the relay's end-to-end test:
#   a move, the outbox, the signed webhook, the relay, the SMTP sink) rendered by headless
#   Chromium as a mail client shows it, its pictures loaded from the test's server;
# - docs/turn-email-{360,800}-{light,dark}.png: the turn email of the snapshots at a
#   phone's and a desktop's width, light and dark (tests/e2e/email.test.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [[ ! -x "$CHROMIUM" ]]; then
    echo "turn-email-picture: installing Debian's chromium"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
OUT="$(realpath -m "${1:-docs/turn-email.png}")"
CHROMIUM="$CHROMIUM" TILEPOST_TURN_EMAIL_PNG="$OUT" \
    cargo test --test api relay::turn_email_sqlite -- --exact
echo "turn-email-picture: wrote $OUT"
DIR="$(dirname "$OUT")"
(cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)
TARGET="$(realpath -m "${CARGO_TARGET_DIR:-target}")"
PROFILE="${PROFILE:-debug}"
source scripts/temp-server.sh
TILEPOST_URL="$BASE" CHROMIUM="$CHROMIUM" TILEPOST_EMAIL_PICTURES="$DIR" \
    node --test tests/e2e/email.test.mjs
echo "turn-email-picture: wrote $DIR/turn-email-{360,800}-{light,dark}.png"
