#!/usr/bin/env bash
# The test command: the whole workspace (engine and server), the API tests on SQLite and
# on Postgres. Starts a temporary Postgres when none answers on 127.0.0.1:5432.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-postgres.sh
cargo test --workspace "$@"
