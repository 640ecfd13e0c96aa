#!/usr/bin/env bash
# Generates a Python client from openapi/openapi.json with openapi-python-client (into
# the cargo target dir; nothing generated is committed), starts the server on a free
# port with a fresh SQLite file, and plays a complete game with play.py.
#
#   scripts/python-client/run.sh            # PROFILE=release for the release build
set -euo pipefail
cd "$(dirname "$0")/../.."
TARGET="$(realpath -m "${CARGO_TARGET_DIR:-target}")"
PROFILE="${PROFILE:-debug}"
OPC_VERSION="${OPC_VERSION:-0.29.1}"

VENV="$TARGET/py"
if [[ ! -x "$VENV/bin/openapi-python-client" ]]; then
    [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q "openapi-python-client==$OPC_VERSION"
fi
OUT="$TARGET/python-client"
rm -rf "$OUT"
mkdir -p "$OUT"
# the generator formats its output with ruff, installed in the same virtualenv
PATH="$VENV/bin:$PATH" "$VENV/bin/openapi-python-client" generate \
    --path openapi/openapi.json --meta none --output-path "$OUT/tilepost_client" --overwrite

if [[ "$PROFILE" == release ]]; then cargo build -q --release --bin tilepost; else cargo build -q --bin tilepost; fi
BIN="$TARGET/$PROFILE/tilepost"
WORK="$(mktemp -d /tmp/tilepost-py.XXXXXX)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
DATABASE_URL="sqlite://$WORK/py.db" TILEPOST_BIND="127.0.0.1:$PORT" \
    TILEPOST_ARGON2_MEMORY_KIB=256 TILEPOST_ARGON2_ITERATIONS=1 RUST_LOG=warn \
    "$BIN" serve >"$WORK/server.log" 2>&1 &
SERVER=$!
cleanup() { kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done

PYTHONPATH="$OUT" "$VENV/bin/python" scripts/python-client/play.py --url "http://127.0.0.1:$PORT" "$@"
