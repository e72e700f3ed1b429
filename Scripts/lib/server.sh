# Sourced by the scripts that run a server which prints `listening on http://127.0.0.1:PORT` as
# its first line (orders serve, Examples/ShopBackend).
#
#   start_server OUT ERR COMMAND…   runs COMMAND in the background with its output in OUT and
#                                   ERR; sets server_pid and port, or fails when no port is
#                                   printed within 20 s (printing ERR's tail)
#   stop_server                     SIGTERM, and the exit status (0 when none runs)
server_pid=
port=

start_server() {
  local out=$1 err=$2
  shift 2
  : > "$out"
  "$@" > "$out" 2> "$err" &
  server_pid=$!
  for _ in $(seq 1 200); do
    grep -q '^listening on ' "$out" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  port=$(sed -n 's/^listening on https\{0,1\}:\/\/[^:]*:\([0-9]*\)$/\1/p' "$out" | head -1)
  if [ -z "$port" ]; then
    echo "$1 printed no 'listening on' line:" >&2
    tail -20 "$err" >&2
    return 1
  fi
}

stop_server() {
  [ -n "$server_pid" ] || return 0
  local pid=$server_pid status=0
  server_pid=
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" || status=$?
  return "$status"
}
