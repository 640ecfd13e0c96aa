#!/usr/bin/env bash
# Lints openapi/openapi.json with the standard tools, as a client author would: Redocly's
# `recommended` rules and Spectral's `spectral:oas` ruleset, at the versions pinned in
# openapi/lint/package-lock.json (installed there with npm ci). Any error or warning of
# either fails. The configuration is in openapi/lint/ (redocly.yaml, its ignore file
# .redocly.lint-ignore.yaml, .spectral.yaml), each exception with its reason.
#
#   scripts/openapi-lint.sh
set -euo pipefail
cd "$(dirname "$0")/.."
LINT=openapi/lint
DOC=openapi/openapi.json

command -v node >/dev/null || { echo "openapi-lint: node (20 or later) is needed" >&2; exit 1; }
(cd "$LINT" && npm ci --no-audit --no-fund --loglevel=error)
BIN="$LINT/node_modules/.bin"
# no usage reports, no update or deprecation notices
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_NOTIFICATIONS=true REDOCLY_SUPPRESS_UPDATE_NOTICE=true

status=0

echo "redocly $("$BIN/redocly" --version 2>/dev/null) (recommended):"
# `redocly lint` fails on errors only: its JSON report gives the warnings to count too
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
"$BIN/redocly" lint --config "$LINT/redocly.yaml" --format json --max-problems 1000 \
    "$DOC" >"$report" 2>/dev/null || true
node - "$report" <<'JS' || status=1
const fs = require("fs");
let r;
try {
  r = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
} catch (e) {
  console.error("  no report from redocly lint");
  process.exit(1);
}
for (const p of r.problems) {
  const where = (p.location[0] && p.location[0].pointer) || "";
  console.log(`  ${p.severity} ${p.ruleId} ${where}: ${p.message}`);
}
const t = r.totals;
console.log(`  ${t.errors} errors, ${t.warnings} warnings (${t.ignored} ignored on purpose)`);
process.exit(t.errors + t.warnings > 0 ? 1 : 0);
JS

echo "spectral $("$BIN/spectral" --version) (spectral:oas):"
"$BIN/spectral" lint --ruleset "$LINT/.spectral.yaml" --fail-severity=warn "$DOC" || status=1

exit $status
