#!/usr/bin/env bash
# Checks docker-compose.yml without a Docker engine:
#   1. `docker-compose config` (Debian's docker-compose, installed with apt when
#      missing) validates it against the Compose schema and resolves ${...} defaults;
#   2. scripts/compose-check.py checks the resolved file against the code: every
#      TILEPOST_* variable is one the code reads, the server posts to the relay's address
#      with the relay's secret, the relay sends to Mailpit's SMTP port, Mailpit's UI is
#      published on 8025;
#   3. the relay's settings, as compose gives them, pass the relay's own check
#      (`tilepost mail-relay --check`).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v docker-compose >/dev/null; then
    echo "compose-check: installing Debian's docker-compose (no engine needed for 'config')"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose; } >/dev/null 2>&1 \
        || ! command -v docker-compose >/dev/null; then
        echo "compose-check: cannot install docker-compose" >&2
        exit 1
    fi
fi

resolved="$(mktemp)"
trap 'rm -f "$resolved"' EXIT
# an empty environment for the ${VAR:-default} substitutions: the file's own defaults
env -i PATH="$PATH" HOME="${HOME:-/root}" docker-compose -f docker-compose.yml config > "$resolved"
echo "compose-check: docker-compose config: valid"

# the relay's environment as compose gives it, through the relay's own check
mapfile -t relay_env < <(python3 scripts/compose-check.py "$resolved" src)
cargo build -q --bin tilepost
env -i PATH="$PATH" "${relay_env[@]}" "${CARGO_TARGET_DIR:-target}/debug/tilepost" mail-relay --check >/dev/null
echo "compose-check: the relay accepts its compose settings"
echo "compose-check: 3 passed, 0 failed"
