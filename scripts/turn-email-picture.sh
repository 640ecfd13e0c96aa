#!/usr/bin/env bash
# Renews docs/turn-email.png: the HTML part of a real turn email (the relay's end-to-end
# test: a move, the outbox, the signed webhook, the relay, the SMTP sink) rendered by
# headless Chromium as a mail client shows it, its pictures loaded from the test's server.
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
