#!/usr/bin/env bash
# Server memory under failed logins with the default argon2 cost: the release build on a
# fresh SQLite file, one user, then LOGINS (200) wrong passwords from CLIENTS (8)
# concurrent clients; prints the server's resident memory (VmRSS, VmHWM) before and
# after, and fails when it ends above LIMIT_MB (150). The login limits are raised so that
# every attempt reaches the password check.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET="${CARGO_TARGET_DIR:-target}"
LOGINS="${LOGINS:-200}" CLIENTS="${CLIENTS:-8}" LIMIT_MB="${LIMIT_MB:-150}"
cargo build -q --release --bin tilepost
WORK="$(mktemp -d /tmp/tilepost-memory.XXXXXX)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
BASE="http://127.0.0.1:$PORT"
DATABASE_URL="sqlite://$WORK/tilepost.db" TILEPOST_BIND="127.0.0.1:$PORT" RUST_LOG=warn \
    TILEPOST_LOGIN_FAILURES_PER_ACCOUNT=100000 TILEPOST_LOGIN_FAILURES_PER_ADDRESS=100000 \
    "$TARGET/release/tilepost" serve >"$WORK/server.log" 2>&1 &
SERVER=$!
cleanup() {
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
for _ in $(seq 1 100); do
    curl -fsS "$BASE/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
rss() { grep -E "^$1:" "/proc/$SERVER/status" | awk '{print int($2/1024)}'; }
curl -fsS -o /dev/null -X POST "$BASE/v1/users" -H 'Content-Type: application/json' \
    -d '{"username":"ann","email":"ann@example.com","password":"correct horse"}'
echo "before: VmRSS $(rss VmRSS) MB"
python3 - "$BASE" "$LOGINS" "$CLIENTS" <<'PY'
import json, sys, time, urllib.request, urllib.error
from concurrent.futures import ThreadPoolExecutor
base, logins, clients = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def attempt(i):
    req = urllib.request.Request(base + "/v1/auth/token", method="POST",
        data=json.dumps({"username": "ann", "password": f"wrong {i}"}).encode(),
        headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(req, timeout=120)
        return 200
    except urllib.error.HTTPError as e:
        return e.code
t = time.time()
with ThreadPoolExecutor(clients) as ex:
    codes = list(ex.map(attempt, range(logins)))
print(f"{logins} logins from {clients} clients in {time.time() - t:.1f} s: " +
      ", ".join(f"{c}: {codes.count(c)}" for c in sorted(set(codes))))
PY
sleep 1
after=$(rss VmRSS)
echo "after: VmRSS ${after} MB, peak VmHWM $(rss VmHWM) MB"
if (( after > LIMIT_MB )); then
    echo "FAIL: more than ${LIMIT_MB} MB" >&2
    exit 1
fi
