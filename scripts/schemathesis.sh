#!/usr/bin/env bash
# Schemathesis against the live server: no 5xx, and every response conforms to
# openapi/openapi.json (all checks). Starts the server (debug build, or release with
# PROFILE=release) on a free port with a fresh SQLite file, registers a user so the
# authenticated operations are exercised too, runs a bounded fuzz, stops the server.
#
#   scripts/schemathesis.sh            # ~2-4 minutes on 2 cores
#   MAX_TIME=60 MAX_EXAMPLES=20 scripts/schemathesis.sh
#
# Schemathesis comes from $SCHEMATHESIS, or PATH, or is installed with pip into a
# virtualenv under the cargo target dir.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET="$(realpath -m "${CARGO_TARGET_DIR:-target}")"
PROFILE="${PROFILE:-debug}"
MAX_TIME="${MAX_TIME:-150}"
MAX_EXAMPLES="${MAX_EXAMPLES:-40}"
ST_VERSION="${ST_VERSION:-4.32.5}"

if [[ -n "${SCHEMATHESIS:-}" ]]; then
    ST="$SCHEMATHESIS"
elif command -v schemathesis >/dev/null 2>&1; then
    ST="$(command -v schemathesis)"
else
    VENV="$TARGET/py"
    if [[ ! -x "$VENV/bin/schemathesis" ]]; then
        # CPython 3.11 can crash inside Hypothesis ("AST constructor recursion depth
        # mismatch"); prefer a newer interpreter when the machine has one
        PY=python3
        for cand in "$HOME"/.pyenv/versions/3.12*/bin/python3 \
            "$HOME"/.pyenv/versions/3.13*/bin/python3 python3.12 python3.13; do
            if "$cand" -c 'import venv' >/dev/null 2>&1; then PY="$cand"; break; fi
        done
        "$PY" -m venv "$VENV"
        "$VENV/bin/pip" install -q "schemathesis==$ST_VERSION"
    fi
    ST="$VENV/bin/schemathesis"
fi
echo "using $("$ST" --version)"

# the live stream (`get_stream`) ends after a second here, so that a fuzzer that reads a
# whole answer gets one; and any number of them may be open at once
export TILEPOST_STREAM_MAX_SECS=1 TILEPOST_STREAMS_PER_USER=1000
source scripts/temp-server.sh

curl -fsS -X POST "$BASE/v1/users" -H 'Content-Type: application/json' \
    -d '{"username":"fuzzer","email":"fuzzer@example.com","password":"correct horse"}' >/dev/null
TOKEN="$(curl -fsS -X POST "$BASE/v1/auth/token" -H 'Content-Type: application/json' \
    -d '{"username":"fuzzer","password":"correct horse"}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')"

curl -fsS -X POST "$BASE/v1/users" -H 'Content-Type: application/json' \
    -d '{"username":"fuzzer2","email":"fuzzer2@example.com","password":"correct horse"}' >/dev/null
TOKEN2="$(curl -fsS -X POST "$BASE/v1/auth/token" -H 'Content-Type: application/json' \
    -d '{"username":"fuzzer2","password":"correct horse"}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')"
# a running 2-seat game of the fuzzer for the operations on one game
export TILEPOST_GAME="$(curl -fsS -X POST "$BASE/v1/games" -H 'Content-Type: application/json' \
    -H "Authorization: Bearer $TOKEN" -d '{"seats":2}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')"
curl -fsS -X POST "$BASE/v1/games/$TILEPOST_GAME/join" -H "Authorization: Bearer $TOKEN2" >/dev/null
# its first move, so that it has a history and cannot be aborted (deleted) by the fuzz
python3 - "$BASE" "$TILEPOST_GAME" "$TOKEN" "$TOKEN2" <<'PY'
import json, sys, urllib.request
base, game, t1, t2 = sys.argv[1:]
tokens = {"fuzzer": t1, "fuzzer2": t2}
def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method,
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json",
                                          **({"Authorization": "Bearer " + token} if token else {})})
    with urllib.request.urlopen(req) as r:
        return json.load(r)
a = call("GET", "/v1/games/%s/actions" % game)
call("POST", "/v1/games/%s/moves" % game,
     {"expected_version": a["version"], "actions": [a["actions"][0]]},
     tokens[a["pending"]["username"]])
PY

# the operations that end sessions (`delete_session`, `delete_sessions`) would end the fuzzer's
# own token half-way: they run last, in a second pass of their own
LAST=(--include-operation-id delete_session --include-operation-id delete_sessions)
set +e
"$ST" --no-color --config-file scripts/schemathesis.toml run openapi/openapi.json --url "$BASE" --checks all \
    -H "Authorization: Bearer $TOKEN" \
    --exclude-operation-id delete_session --exclude-operation-id delete_sessions \
    --max-examples "$MAX_EXAMPLES" --max-time "$MAX_TIME" --workers 2 \
    --request-timeout 10 --seed "${SEED:-1}" --generation-database none \
    --report junit --report-dir "$TARGET/schemathesis-report" "$@"
rc=$?
"$ST" --no-color --config-file scripts/schemathesis.toml run openapi/openapi.json --url "$BASE" --checks all \
    -H "Authorization: Bearer $TOKEN" "${LAST[@]}" \
    --max-examples "$MAX_EXAMPLES" --max-time 30 --workers 1 \
    --request-timeout 10 --seed "${SEED:-1}" --generation-database none \
    --report junit --report-dir "$TARGET/schemathesis-report-last" "$@"
rc2=$?
[[ $rc -eq 0 ]] && rc=$rc2
set -e
if grep -q 'panicked' "$WORK/server.log"; then
    echo "the server panicked:" >&2
    grep -A3 'panicked' "$WORK/server.log" >&2
    rc=1
fi
exit $rc
