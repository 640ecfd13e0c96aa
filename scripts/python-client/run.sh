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

source scripts/temp-server.sh

PYTHONPATH="$OUT" "$VENV/bin/python" scripts/python-client/play.py --url "$BASE" "$@"
