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

if [[ "$PROFILE" == release ]]; then cargo build -q --release --bin tilepost; else cargo build -q --bin tilepost; fi
BIN="$TARGET/$PROFILE/tilepost"
WORK="$(mktemp -d /tmp/tilepost-e2e.XXXXXX)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
DATABASE_URL="sqlite://$WORK/e2e.db" TILEPOST_BIND="127.0.0.1:$PORT" \
    TILEPOST_ARGON2_MEMORY_KIB=256 TILEPOST_ARGON2_ITERATIONS=1 RUST_LOG=warn \
    "$BIN" serve >"$WORK/server.log" 2>&1 &
SERVER=$!
cleanup() {
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done

status=0
mkdir -p "$TARGET/e2e"
TILEPOST_URL="http://127.0.0.1:$PORT" CHROMIUM="$CHROMIUM" TILEPOST_SCREENSHOT="$(realpath -m "${SCREENSHOT:-$TARGET/e2e/play.png}")" \
    node --test --test-concurrency=1 tests/e2e/ || status=$?
if [[ $status -ne 0 ]]; then
    echo "e2e: failed; the server's log:" >&2
    tail -n 50 "$WORK/server.log" >&2
fi
exit $status
