#!/bin/sh
# Restarts the instances of the Workspace Read API behind a balancer one at a time, so that no
# request is lost (docs/operators.md, "Rolling restart"). Tested by
# test/deploy/balancers-rolling-restart.process.test.ts, which restarts three instances with it
# behind deploy/nginx.conf and deploy/haproxy.cfg under load.
#
# For each instance, in turn:
#   1. SIGTERM to its process: it answers /readyz 503 and `Connection: close` for DRAIN_DELAY_MS,
#      so the balancer takes it out, then finishes what it accepted and exits;
#   2. waits until that process has exited (its port is free again);
#   3. starts the new one (START, with PORT set), its process id written to PID_DIR/PORT.pid;
#   4. waits until its /readyz answers 200, and, when HAPROXY_STATS_URL is set, until HAProxy
#      marks it UP (open-source nginx has no such state: it takes an instance back on its next
#      request), before the next instance stops.
# One instance is out at a time: the others carry the traffic meanwhile.
#
# Settings (environment):
#   INSTANCES           the instances' ports, e.g. "3001 3002 3003" (required)
#   PID_DIR             where PORT.pid holds each running instance's process id (required); the
#                       new process's output goes to PORT.log there
#   START               the command that runs one instance in the foreground, with PORT set, e.g.
#                       'exec node bin/workspace-api.js serve' (required; `exec`, so that the pid
#                       written is the service's own)
#   HOST                the address the instances listen on and answer /readyz at (127.0.0.1)
#   HAPROXY_STATS_URL   HAProxy's stats page (deploy/haproxy.cfg: http://127.0.0.1:8404/stats);
#                       unset behind nginx
#   HAPROXY_SERVERS     with it, each instance's `server` name in HAProxy's configuration, in the
#                       order of INSTANCES (deploy/haproxy.cfg: "instance1 instance2 instance3")
#   STOP_TIMEOUT        seconds an instance may take to exit after SIGTERM: above DRAIN_DELAY_MS
#                       plus the longest request (60)
#   READY_TIMEOUT       seconds a new instance may take to be ready, and to be marked up (60)
# Exit status 0 when every instance was restarted; 1, naming the instance, as soon as one did not
# stop, start or become ready in time (the instances after it are left as they are).
set -eu

: "${INSTANCES:?INSTANCES: the instances' ports, e.g. \"3001 3002 3003\"}"
: "${PID_DIR:?PID_DIR: the folder of each instance's PORT.pid}"
: "${START:?START: the command that runs one instance, with PORT set}"
HOST=${HOST:-127.0.0.1}
STOP_TIMEOUT=${STOP_TIMEOUT:-60}
READY_TIMEOUT=${READY_TIMEOUT:-60}

say() { printf '%s rolling-restart: %s\n' "$(date -u +%H:%M:%S)" "$*"; }
fail() { say "$*" >&2; exit 1; }

# Polls `$@` every 200 ms until it succeeds, at most $1 seconds; false when it never did.
within() {
  seconds=$1
  shift
  tries=$((seconds * 5))
  until "$@"; do
    tries=$((tries - 1))
    [ "$tries" -gt 0 ] || return 1
    sleep 0.2
  done
}

gone() { ! kill -0 "$1" 2>/dev/null; }
ready() { [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://$HOST:$1/readyz")" = 200 ]; }
# The stats CSV gives each server's name (`svname`) and state (`status`; it hides addresses): the
# columns are found by name in its header, so the check does not depend on HAProxy's column order.
marked_up() {
  curl -s --max-time 2 "$HAPROXY_STATS_URL;csv" | awk -F, -v name="$1" '
    NR == 1 { sub(/^# /, ""); for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["svname"] == name && $col["status"] ~ /^UP/ { up = 1 }
    END { exit up ? 0 : 1 }'
}

# The nth word of the list $2 ($1 counts from 1).
nth() { echo "$2" | awk -v n="$1" '{ print $n }'; }

if [ -n "${HAPROXY_STATS_URL:-}" ]; then
  : "${HAPROXY_SERVERS:?HAPROXY_SERVERS: the instances' server names in HAProxy, in the order of INSTANCES}"
  [ "$(echo "$INSTANCES" | wc -w)" = "$(echo "$HAPROXY_SERVERS" | wc -w)" ] || fail "HAPROXY_SERVERS names $(echo "$HAPROXY_SERVERS" | wc -w) servers for $(echo "$INSTANCES" | wc -w) instances"
fi

n=0
for port in $INSTANCES; do
  n=$((n + 1))
  pid_file="$PID_DIR/$port.pid"
  if [ -s "$pid_file" ] && ! gone "$(cat "$pid_file")"; then
    pid=$(cat "$pid_file")
    say "instance on $port (pid $pid): SIGTERM, draining"
    kill -TERM "$pid"
    within "$STOP_TIMEOUT" gone "$pid" || fail "instance on $port (pid $pid) did not exit within ${STOP_TIMEOUT}s"
  else
    say "instance on $port is not running: starting it"
  fi
  PORT=$port sh -c "$START" >>"$PID_DIR/$port.log" 2>&1 &
  echo $! >"$pid_file"
  within "$READY_TIMEOUT" ready "$port" || fail "instance on $port (pid $!) not ready within ${READY_TIMEOUT}s; see $PID_DIR/$port.log"
  if [ -n "${HAPROXY_STATS_URL:-}" ]; then
    server=$(nth "$n" "$HAPROXY_SERVERS")
    within "$READY_TIMEOUT" marked_up "$server" || fail "HAProxy did not mark $server (the instance on $port) up within ${READY_TIMEOUT}s"
  fi
  say "instance on $port (pid $(cat "$pid_file")): ready"
done
say "every instance restarted"
