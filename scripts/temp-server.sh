# Sourced by the scripts that test a live server: builds tilepost ($PROFILE: debug or
# release, into $TARGET), starts it on a free port with a fresh SQLite file in a temporary
# directory (with abuse limits high enough for a fuzzer that signs up and logs in from one
# address thousands of times), waits until it answers, and stops it (and removes the directory) on exit.
# Sets BASE (the server's URL), WORK (the directory; the log is $WORK/server.log) and
# SERVER (its pid).
if [[ "$PROFILE" == release ]]; then cargo build -q --release --bin tilepost; else cargo build -q --bin tilepost; fi
WORK="$(mktemp -d /tmp/tilepost-server.XXXXXX)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
BASE="http://127.0.0.1:$PORT"
DATABASE_URL="sqlite://$WORK/tilepost.db" TILEPOST_BIND="127.0.0.1:$PORT" \
    TILEPOST_ARGON2_MEMORY_KIB=256 TILEPOST_ARGON2_ITERATIONS=1 RUST_LOG=warn \
    TILEPOST_SIGNUPS_PER_ADDRESS=1000000 TILEPOST_LOGIN_FAILURES_PER_ACCOUNT=1000000 \
    TILEPOST_LOGIN_FAILURES_PER_ADDRESS=1000000 TILEPOST_GAMES_PER_HOUR=1000000 \
    TILEPOST_CHAT_PER_MINUTE=1000000 TILEPOST_INVITATIONS_PER_GAME=1000000 \
    TILEPOST_INVITATIONS_PER_DAY=1000000 TILEPOST_MOVES_PER_MINUTE=1000000 \
    TILEPOST_WEBHOOKS_PER_DAY=1000000 TILEPOST_PERSONAL_TOKENS_PER_DAY=1000000 \
    "$TARGET/$PROFILE/tilepost" serve >"$WORK/server.log" 2>&1 &
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
