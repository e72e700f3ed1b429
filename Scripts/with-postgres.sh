#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL cluster, stopped and deleted when the command ends:
#
#   Scripts/with-postgres.sh swift test
#
# initdb in a new temporary directory, as an unprivileged user (`postgres` when run as root: initdb
# refuses root), trust authentication, the Unix socket in that directory, and TLS on a free
# loopback port (ORDERS_TEST_POSTGRES_TCP) for the tests of sslmode.
# fsync is off: the cluster holds test data only. The command finds it in ORDERS_TEST_POSTGRES, a
# URL as `--database` takes it (postgres://USER@/postgres?host=SOCKET_DIRECTORY). Tests without
# that variable skip their PostgreSQL rows and say so.
#
# In front of it, two PgBouncers on free loopback ports, any database name passed through:
# ORDERS_TEST_PGBOUNCER_SESSION (pool_mode = session) and ORDERS_TEST_PGBOUNCER_TRANSACTION
# (pool_mode = transaction, the URL with prepared=false: PgBouncer 1.18 keeps no prepared
# statements across transactions). The contract suite and the multi-instance tests run through both.
#
# And a second, separate pair of servers for the failover tests (Scripts/postgres-pair.sh): a
# primary with a synchronous hot standby, in ORDERS_TEST_POSTGRES_PAIR (the pair's directory, for
# postgres-pair.sh failover/rejoin/restart); its URL names both hosts with
# target_session_attrs=read-write.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "with-postgres: PostgreSQL's server is not installed (Debian package postgresql; Scripts/setup.sh installs it)" >&2
  exit 2
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/orders-postgres.XXXXXX")
as=()
user=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
  user=postgres
  as=(runuser -u postgres --)
  chown postgres: "$dir"
fi
stop() {
  "$(dirname "$0")/postgres-pair.sh" stop "$dir/pair" >/dev/null 2>&1 || true
  for pidfile in "$dir"/pgbouncer-*.pid; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
"${as[@]}" "$bin/initdb" -D "$dir/data" -U "$user" --auth=trust --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
# TLS on a loopback TCP port as well, for the tests of sslmode: a throwaway CA (a managed
# service's own, say) signs the server's certificate (localhost, 127.0.0.1) and a client
# certificate for the role orders_cert, which pg_hba.conf admits over TLS by certificate only
# (`cert`); another CA, which signed nothing here, is the wrong root.
ca() { openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$2" -keyout "$dir/$1.key" -out "$dir/$1.crt" >/dev/null 2>&1; }
signed() {
  openssl req -new -newkey rsa:2048 -nodes -subj "/CN=$2" -keyout "$dir/$1.key" -out "$dir/$1.csr" >/dev/null 2>&1
  local extensions=()
  if [ -n "${3:-}" ]; then printf '%s\n' "$3" >"$dir/$1.ext"; extensions=(-extfile "$dir/$1.ext"); fi
  openssl x509 -req -in "$dir/$1.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -CAserial "$dir/ca.srl" \
    -days 2 -out "$dir/$1.crt" "${extensions[@]}" >/dev/null 2>&1
  chmod 600 "$dir/$1.key"
}
ca ca "wallet-orders test database CA"
ca other-ca "wallet-orders test other CA"
signed server localhost "subjectAltName=DNS:localhost,IP:127.0.0.1"
signed client orders_cert
[ "$(id -u)" -eq 0 ] && chown postgres: "$dir/server.key" "$dir/server.crt" "$dir/ca.crt"
# The certificate-only role: its pg_hba lines go first (the first matching line decides).
{ printf 'hostssl all orders_cert 127.0.0.1/32 cert\nhost all orders_cert 127.0.0.1/32 reject\n'; cat "$dir/data/pg_hba.conf"; } \
  >"$dir/pg_hba.conf" && mv "$dir/pg_hba.conf" "$dir/data/pg_hba.conf"
[ "$(id -u)" -eq 0 ] && chown postgres: "$dir/data/pg_hba.conf"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# max_locks_per_transaction: every test migrates a new database in one transaction, which holds a
# lock per table and index it creates, and the tests of three routes (direct, two PgBouncers)
# migrate at once; the default's shared lock table ran out ("out of shared memory", 53200).
# max_connections 400 and PgBouncer's idle server connections closed after 2 s: every test has a
# database of its own, and a pooler keeps a pool per database (10 at most here).
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$dir' -c fsync=off -c max_connections=400 -c max_locks_per_transaction=256 \
      -c ssl=on -c ssl_cert_file='$dir/server.crt' -c ssl_key_file='$dir/server.key' -c ssl_ca_file='$dir/ca.crt'" start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }
echo "with-postgres: throwaway cluster at $dir (PostgreSQL $("$bin/postgres" --version | awk '{print $3}'))" >&2
export ORDERS_TEST_POSTGRES="postgres://$user@/postgres?host=$dir&port=$port"
export ORDERS_TEST_POSTGRES_TCP="postgres://$user@127.0.0.1:$port/postgres"
"${as[@]}" "$bin/psql" -h "$dir" -p "$port" -U "$user" -d postgres -qc "CREATE ROLE orders_cert LOGIN SUPERUSER" >/dev/null
export ORDERS_TEST_POSTGRES_CA="$dir/ca.crt" ORDERS_TEST_POSTGRES_OTHER_CA="$dir/other-ca.crt"
export ORDERS_TEST_POSTGRES_CLIENT_CERT="$dir/client.crt" ORDERS_TEST_POSTGRES_CLIENT_KEY="$dir/client.key"

# PgBouncer, in each pooling mode, in front of the cluster's socket.
if ! command -v pgbouncer >/dev/null; then
  echo "with-postgres: pgbouncer is not installed (Debian package pgbouncer; Scripts/setup.sh installs it)" >&2
  exit 2
fi
printf '"%s" ""\n' "$user" >"$dir/pgbouncer-users.txt"
for mode in session transaction; do
  bouncer=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  cat >"$dir/pgbouncer-$mode.ini" <<INI
[databases]
* = host=$dir port=$port
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $bouncer
unix_socket_dir =
auth_type = trust
auth_file = $dir/pgbouncer-users.txt
pool_mode = $mode
max_client_conn = 2000
default_pool_size = 10
max_db_connections = 10
server_idle_timeout = 2
server_reset_query = DISCARD ALL
ignore_startup_parameters = extra_float_digits,application_name
logfile = $dir/pgbouncer-$mode.log
pidfile = $dir/pgbouncer-$mode.pid
INI
  [ "$(id -u)" -eq 0 ] && chown postgres: "$dir/pgbouncer-$mode.ini" "$dir/pgbouncer-users.txt"
  "${as[@]}" pgbouncer -d -q "$dir/pgbouncer-$mode.ini" || { cat "$dir/pgbouncer-$mode.log" >&2; exit 1; }
  for _ in $(seq 100); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $bouncer), 0.2)" 2>/dev/null && break
    sleep 0.1
  done
  if [ "$mode" = session ]; then
    export ORDERS_TEST_PGBOUNCER_SESSION="postgres://$user@127.0.0.1:$bouncer/postgres?sslmode=disable"
  else
    export ORDERS_TEST_PGBOUNCER_TRANSACTION="postgres://$user@127.0.0.1:$bouncer/postgres?sslmode=disable&prepared=false"
  fi
done
echo "with-postgres: PgBouncer $(pgbouncer --version | awk 'NR==1 {print $2}') in session and transaction mode" >&2

"$(dirname "$0")/postgres-pair.sh" start "$dir/pair"
export ORDERS_TEST_POSTGRES_PAIR="$dir/pair"
echo "with-postgres: a primary and its synchronous standby at $dir/pair" >&2
set +e
"$@"
status=$?
exit $status
