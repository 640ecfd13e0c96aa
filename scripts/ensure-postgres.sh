# Sourced by scripts/test.sh and .ci/run: makes sure a Postgres answers for the tests.
#
# - DATABASE_URL set (postgres://...): use it.
# - something answers on 127.0.0.1:5432: use it (postgres://postgres@127.0.0.1:5432/test).
# - otherwise: start a throw-away cluster (initdb + pg_ctl) in a temporary directory,
#   as the postgres user when running as root, and stop it on exit.
#
# Then the database the URL names (`test` by default) is created when it is missing (with
# psql, from the server's `postgres` database; without psql the test harness creates it).
# The tests connect to it only to create and drop their own databases (`tp_test_<uuid>`,
# one per Postgres test); the URL's role must be allowed to create databases.

pg_answers() {
    (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

if [[ "${DATABASE_URL:-}" == postgres* ]]; then
    echo "tests use Postgres from DATABASE_URL"
elif pg_answers 127.0.0.1 5432; then
    echo "tests use the Postgres on 127.0.0.1:5432"
else
    PG_INITDB="$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n1)"
    PG_INITDB="${PG_INITDB:-$(command -v initdb 2>/dev/null || true)}"
    PG_BIN="$(dirname "${PG_INITDB:-/nonexistent/initdb}")"
    if [[ ! -x "$PG_BIN/initdb" ]]; then
        echo "no Postgres answers on 127.0.0.1:5432 and initdb is not installed;" >&2
        echo "install PostgreSQL (apt-get install postgresql) or set DATABASE_URL=postgres://..." >&2
        exit 1
    fi
    PG_TMP="$(mktemp -d /tmp/tilepost-pg.XXXXXX)"
    AS=()
    if [[ "$(id -u)" == 0 ]]; then
        chown postgres "$PG_TMP" 2>/dev/null || { useradd -r postgres && chown postgres "$PG_TMP"; }
        AS=(runuser -u postgres --)
    fi
    echo "starting a temporary Postgres in $PG_TMP"
    "${AS[@]}" "$PG_BIN/initdb" -D "$PG_TMP/data" -A trust -U postgres >/dev/null
    "${AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/log" -w \
        -o "-p 5432 -k $PG_TMP -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null
    stop_pg() { "${AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m fast stop >/dev/null 2>&1 || true; }
    trap stop_pg EXIT
    if [[ -x "$PG_BIN/psql" ]]; then PATH="$PG_BIN:$PATH"; fi
fi

# the database the tests' URL names, created when missing
ensure_pg_database() {
    local url="$1" head query db maint
    head="${url%%\?*}"
    query=""
    if [[ "$url" == *\?* ]]; then query="?${url#*\?}"; fi
    # no database in the URL: nothing to create
    if [[ "${head#*://}" != */?* ]]; then return 0; fi
    db="${head##*/}"
    maint="${head%/*}/postgres$query"
    if ! command -v psql >/dev/null; then
        echo "psql is not installed: the test harness creates the database $db if missing"
        return 0
    fi
    if [[ "$(psql "$maint" -Atqc "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]]; then
        echo "creating the database $db"
        psql "$maint" -qc "CREATE DATABASE \"$db\"" >/dev/null
    fi
}
ensure_pg_database "${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
