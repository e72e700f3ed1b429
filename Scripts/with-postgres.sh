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
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
"${as[@]}" "$bin/initdb" -D "$dir/data" -U "$user" --auth=trust --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
# TLS on a loopback TCP port as well, with a self-signed certificate, for the tests of
# `sslmode=require` (encrypted) and `verify-full` (refused: the certificate is not trusted).
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost -keyout "$dir/server.key" -out "$dir/server.crt" \
  >/dev/null 2>&1
chmod 600 "$dir/server.key"
[ "$(id -u)" -eq 0 ] && chown postgres: "$dir/server.key" "$dir/server.crt"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$dir' -c fsync=off -c max_connections=200 \
      -c ssl=on -c ssl_cert_file='$dir/server.crt' -c ssl_key_file='$dir/server.key'" start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }
echo "with-postgres: throwaway cluster at $dir (PostgreSQL $("$bin/postgres" --version | awk '{print $3}'))" >&2
export ORDERS_TEST_POSTGRES="postgres://$user@/postgres?host=$dir&port=$port"
export ORDERS_TEST_POSTGRES_TCP="postgres://$user@127.0.0.1:$port/postgres"
set +e
"$@"
status=$?
exit $status
