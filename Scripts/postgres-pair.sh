#!/usr/bin/env bash
# A throwaway PostgreSQL primary with a synchronous hot standby, for the failover tests:
#
#   Scripts/postgres-pair.sh start DIR      two nodes, a (primary) and b (standby of a), in DIR
#   Scripts/postgres-pair.sh url DIR        the URL naming both, target_session_attrs=read-write
#   Scripts/postgres-pair.sh failover DIR   kill -9 every process of the primary, promote the standby
#   Scripts/postgres-pair.sh kill DIR       kill -9 every process of the primary (no server takes
#                                           writes until `promote`)
#   Scripts/postgres-pair.sh promote DIR    promote the standby of a killed primary
#   Scripts/postgres-pair.sh switchover DIR fast|immediate
#                                           promote the standby first, wait until a commit on the old
#                                           primary waits for it (the standby is gone: it waits for
#                                           good), then stop the old primary (pg_ctl stop -m MODE),
#                                           as an operator or orchestrator does; prints how many
#                                           commits were waiting
#   Scripts/postgres-pair.sh rejoin DIR     the dead node rebuilt (pg_basebackup) as the new primary's
#                                           synchronous standby, caught up
#   Scripts/postgres-pair.sh restart DIR    the primary restarted (pg_ctl restart -m fast)
#   Scripts/postgres-pair.sh stop DIR
#
# Each node keeps its port; the primary's name is in DIR/primary. Synchronous replication
# (synchronous_standby_names = '*', synchronous_commit = on): a commit is acknowledged once the
# standby has flushed it, so a save the primary acknowledged survives the primary's death.
# Between a promotion and the rejoin the new primary has no standby to wait for: it runs
# asynchronous (no node is killed then); `rejoin` turns synchronous replication back on and waits
# until the standby holds everything the primary wrote. After the primary restarts, its commits
# wait until the standby has reconnected: wal_retrieve_retry_interval is 100 ms here (PostgreSQL's
# default, 5 s, would hold every save that long). As root the servers run as `postgres`.
set -euo pipefail
command=${1:?usage: postgres-pair.sh start|url|failover|kill|promote|switchover|rejoin|restart|stop DIR [fast|immediate]}
dir=${2:?usage: postgres-pair.sh $command DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "postgres-pair: PostgreSQL's server is not installed" >&2; exit 2; }
as=()
user=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
  user=postgres
  as=(runuser -u postgres --)
fi
other() { [ "$1" = a ] && echo b || echo a; }
port() { cat "$dir/$1.port"; }
sql() { "${as[@]}" "$bin/psql" -h "$dir" -p "$(port "$1")" -U "$user" -d postgres -Atqc "$2"; }
options() {
  echo "-c listen_addresses=127.0.0.1 -c port=$(port "$1") -c unix_socket_directories='$dir' -c fsync=off" \
    "-c wal_level=replica -c max_wal_senders=10 -c wal_keep_size=256MB -c hot_standby=on" \
    "-c max_connections=200 -c max_locks_per_transaction=256 -c wal_retrieve_retry_interval=100ms"
}
start_node() {
  "${as[@]}" "$bin/pg_ctl" -D "$dir/$1" -l "$dir/$1.log" -w -t 60 -o "$(options "$1")" start >/dev/null \
    || { cat "$dir/$1.log" >&2; exit 1; }
}
# The standby of `$2`, copied from it: `standby.signal` and primary_conninfo from -R.
copy_standby() {
  rm -rf "${dir:?}/$1"
  "${as[@]}" "$bin/pg_basebackup" -D "$dir/$1" -h "$dir" -p "$(port "$2")" -U "$user" -X stream -R -c fast \
    >"$dir/$1.basebackup.log" 2>&1 || { cat "$dir/$1.basebackup.log" >&2; exit 1; }
  # Its own name for synchronous_standby_names, and no synchronous standby of its own until it
  # is promoted and another joins it.
  sed -i "s/^primary_conninfo = '/primary_conninfo = 'application_name=$1 /" "$dir/$1/postgresql.auto.conf"
  sed -i "/^synchronous_standby_names/d" "$dir/$1/postgresql.auto.conf"
}
wait_for() { # condition text, SQL on node, expected output
  for _ in $(seq 600); do
    [ "$(sql "$2" "$3" 2>/dev/null || true)" = "$4" ] && return 0
    sleep 0.05
  done
  echo "postgres-pair: $1 did not happen within 30 s" >&2
  exit 1
}
# Synchronous replication on the primary, and the standby caught up to what it wrote.
make_synchronous() {
  local primary=$1 standby
  standby=$(other "$primary")
  wait_for "the standby's streaming" "$primary" \
    "SELECT count(*) FROM pg_stat_replication WHERE application_name = '$standby' AND state = 'streaming'" 1
  sql "$primary" "ALTER SYSTEM SET synchronous_standby_names = '*'" >/dev/null
  sql "$primary" "SELECT pg_reload_conf()" >/dev/null
  wait_for "synchronous replication" "$primary" \
    "SELECT sync_state FROM pg_stat_replication WHERE application_name = '$standby'" sync
  local lsn
  lsn=$(sql "$primary" "SELECT pg_current_wal_lsn()")
  wait_for "the standby's catching up" "$primary" \
    "SELECT flush_lsn >= '$lsn' FROM pg_stat_replication WHERE application_name = '$standby'" t
}

# The whole primary at once, as a machine that dies: the postmaster and every backend. The
# postmaster is stopped first so that it forks no backend between the listing and the kill (a
# backend left alive without its postmaster can wait forever on a lock a killed one held; each
# runs in a session of its own, so no process-group kill reaches them all).
kill_primary() {
  local primary pid children
  primary=$(cat "$dir/primary")
  pid=$(head -1 "$dir/$primary/postmaster.pid")
  kill -STOP "$pid"
  children=$(pgrep -P "$pid" || true)
  # shellcheck disable=SC2086
  kill -9 $children "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.01; done
}
promote_standby() {
  local primary standby
  primary=$(cat "$dir/primary")
  standby=$(other "$primary")
  "${as[@]}" "$bin/pg_ctl" -D "$dir/$standby" -w -t 60 promote >/dev/null
  wait_for "the promotion" "$standby" "SHOW transaction_read_only" off
  echo "$standby" >"$dir/primary"
}

case "$command" in
start)
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
  for node in a b; do
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' >"$dir/$node.port"
  done
  "${as[@]}" "$bin/initdb" -D "$dir/a" -U "$user" --auth=trust --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  start_node a
  copy_standby b a
  start_node b
  make_synchronous a
  echo a >"$dir/primary"
  ;;
url)
  printf 'postgres://%s@127.0.0.1:%s,127.0.0.1:%s/postgres?sslmode=disable&target_session_attrs=read-write\n' \
    "$user" "$(port a)" "$(port b)"
  ;;
failover)
  kill_primary
  promote_standby
  ;;
kill)
  kill_primary
  ;;
promote)
  promote_standby
  ;;
switchover)
  mode=${3:?usage: postgres-pair.sh switchover DIR fast|immediate}
  primary=$(cat "$dir/primary")
  promote_standby
  # The old primary still takes writes, and each commit there now waits for a standby that left:
  # stop it while one waits (up to 10 s for one to come), which is when an acknowledgement sent
  # before the commit was confirmed would reach the client.
  waiting=0
  for _ in $(seq 200); do
    waiting=$(sql "$primary" "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'" 2>/dev/null || echo 0)
    [ "$waiting" -gt 0 ] && break
    sleep 0.05
  done
  "${as[@]}" "$bin/pg_ctl" -D "$dir/$primary" -m "$mode" -w -t 60 stop >/dev/null
  echo "$waiting"
  ;;
rejoin)
  primary=$(cat "$dir/primary")
  standby=$(other "$primary")
  copy_standby "$standby" "$primary"
  start_node "$standby"
  make_synchronous "$primary"
  ;;
restart)
  primary=$(cat "$dir/primary")
  "${as[@]}" "$bin/pg_ctl" -D "$dir/$primary" -m fast -w -t 60 restart -l "$dir/$primary.log" \
    -o "$(options "$primary")" >/dev/null
  ;;
stop)
  for node in a b; do
    [ -f "$dir/$node/postmaster.pid" ] && "${as[@]}" "$bin/pg_ctl" -D "$dir/$node" -m immediate stop >/dev/null 2>&1 || true
  done
  rm -rf "$dir"
  ;;
*)
  echo "postgres-pair: unknown command $command" >&2
  exit 2
  ;;
esac
