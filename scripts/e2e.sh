#!/usr/bin/env bash
# End-to-end tests of the web client (/play) in headless Chromium: Debian's chromium
# driven by playwright-core (no browser download), against the server on a free port
# with a fresh SQLite file. The tests take a picture of the game page mid-game, into the
# cargo target dir (SCREENSHOT=docs/play.png renews the README's picture).
#
#   scripts/e2e.sh            # PROFILE=release for the release build
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET="$(realpath -m "${CARGO_TARGET_DIR:-target}")"
PROFILE="${PROFILE:-debug}"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"

if [[ ! -x "$CHROMIUM" ]]; then
    echo "e2e: $CHROMIUM is missing; installing Debian's chromium"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1 \
        || [[ ! -x "$CHROMIUM" ]]; then
        echo "e2e: cannot install chromium (apt-get install -y chromium failed); the browser tests need it" >&2
        exit 1
    fi
fi
command -v node >/dev/null || { echo "e2e: node (20 or later) is needed" >&2; exit 1; }

(cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)

source scripts/temp-server.sh

status=0
mkdir -p "$TARGET/e2e"
TILEPOST_URL="$BASE" CHROMIUM="$CHROMIUM" TILEPOST_SCREENSHOT="$(realpath -m "${SCREENSHOT:-$TARGET/e2e/play.png}")" \
    node --test --test-concurrency=1 tests/e2e/ || status=$?
if [[ $status -ne 0 ]]; then
    echo "e2e: failed; the server's log:" >&2
    tail -n 50 "$WORK/server.log" >&2
fi
exit $status
