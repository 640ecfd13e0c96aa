#!/usr/bin/env bash
# The web client's static checks (web/, plain modules with no build step):
#   1. web/types/api.d.ts is what openapi-typescript makes of openapi/openapi.json (the
#      request and answer types the client's JSDoc names; the browser never loads it);
#   2. tsc --checkJs over web/ (web/jsconfig.json) finds no type error;
#   3. no function in web/ is longer than 150 lines (function-length.mjs).
# The tools come from this folder's package-lock.json (npm ci), nothing else is fetched.
#
#   scripts/web-check/run.sh             # check
#   UPDATE=1 scripts/web-check/run.sh    # rewrite web/types/api.d.ts from the document
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v node >/dev/null || { echo "web-check: node (20 or later) is needed" >&2; exit 1; }

(cd scripts/web-check && npm ci --no-audit --no-fund --loglevel=error)
BIN=scripts/web-check/node_modules/.bin

GENERATED="$(mktemp --suffix=.d.ts)"
trap 'rm -f "$GENERATED"' EXIT
"$BIN/openapi-typescript" openapi/openapi.json --output "$GENERATED" >/dev/null 2>&1 \
    || "$BIN/openapi-typescript" openapi/openapi.json --output "$GENERATED"
if [[ "${UPDATE:-}" == 1 ]]; then
    cp "$GENERATED" web/types/api.d.ts
    echo "web-check: web/types/api.d.ts rewritten"
elif ! diff -u web/types/api.d.ts "$GENERATED" >"$GENERATED.diff"; then
    head -n 60 "$GENERATED.diff" >&2
    rm -f "$GENERATED.diff"
    echo "web-check: web/types/api.d.ts differs from openapi/openapi.json's types; UPDATE=1 scripts/web-check/run.sh renews it" >&2
    exit 1
fi
rm -f "$GENERATED.diff"
echo "web-check: web/types/api.d.ts matches openapi/openapi.json"

"$BIN/tsc" -p web/jsconfig.json
echo "web-check: tsc --checkJs over web/: no error"

node scripts/web-check/function-length.mjs
