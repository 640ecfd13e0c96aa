#!/usr/bin/env bash
# Runs the README's curl tour ("A whole game with curl": every shell block of that
# section, as written) against a temporary server on a fresh SQLite file, RUNS times
# (default 4, a new server each time, so the first tile drawn differs), and fails when a
# command fails or the API refuses a request (curl gets --fail-with-body here), when the
# game does not end, when the history shows no points, or when the tour leaves a file in
# its working directory. The one change made to the text: `target/release/tilepost`
# becomes the binary under test.
#
#   scripts/readme-tour.sh            # PROFILE=release for the release build
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET="$(realpath -m "${CARGO_TARGET_DIR:-target}")"
PROFILE="${PROFILE:-debug}"
RUNS="${RUNS:-4}"
command -v jq >/dev/null || { echo "readme-tour: jq is needed (apt-get install jq)" >&2; exit 1; }

# the section's shell blocks, from its heading to the next heading of its level
tour="$(awk '
    /^## / { on = ($0 == "## A whole game with curl") }
    on && /^```sh$/ { inblock = 1; next }
    on && /^```$/ { inblock = 0; next }
    on && inblock { print }
' README.md)"
[[ -n "$tour" ]] || { echo "readme-tour: no shell blocks under '## A whole game with curl'" >&2; exit 1; }

firsts=()
for run in $(seq 1 "$RUNS"); do
    (
        source scripts/temp-server.sh
        bin="$TARGET/$PROFILE/tilepost"
        script="$(printf '%s\n' "$tour" | sed \
            -e "s#http://127.0.0.1:8080#$BASE#g" \
            -e "s#target/release/tilepost#$bin#g")"
        # the tour runs in an empty directory of its own, and must leave it empty
        mkdir "$WORK/cwd"
        cd "$WORK/cwd"
        out="$WORK/tour.out"
        {
            echo 'set -euo pipefail'
            # a request the API refuses fails the command, with the problem shown
            echo 'curl() { command curl --fail-with-body "$@"; }'
            printf '%s\n' "$script"
            cat <<'END'
echo "FIRST_TILE=$(curl -s "$API/games/$GAME/events?limit=1" | jq -r '[.events[0].consequences[] | select(.type == "tile_drawn")][0].tile')"
echo "FINAL=$(curl -s "$API/games/$GAME" | jq -r .status)"
END
        } >"$WORK/tour.sh"
        if ! bash "$WORK/tour.sh" >"$out" 2>&1; then
            echo "readme-tour: run $run failed; its output:" >&2
            tail -n 40 "$out" >&2
            echo "the server's log:" >&2
            tail -n 20 "$WORK/server.log" >&2
            exit 1
        fi
        if [[ -n "$(ls -A "$WORK/cwd")" ]]; then
            echo "readme-tour: run $run left files behind: $(ls -A "$WORK/cwd" | tr '\n' ' ')" >&2
            exit 1
        fi
        grep -q '^FINAL=finished$' "$out" || { echo "readme-tour: run $run: the game did not end" >&2; tail -n 20 "$out" >&2; exit 1; }
        grep -q '"feature_scored"' "$out" || { echo "readme-tour: run $run: the history example shows no points" >&2; exit 1; }
        grep '^FIRST_TILE=' "$out" | tail -n 1 >"/tmp/readme-tour.$$.$run"
    )
    firsts+=("$(sed "s/^FIRST_TILE=//" "/tmp/readme-tour.$$.$run")")
    rm -f "/tmp/readme-tour.$$.$run"
done
echo "readme-tour: $RUNS runs passed; first tiles: ${firsts[*]}"
