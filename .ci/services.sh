#!/usr/bin/env bash
# The services the tests use for real (MACHINE.md): PostgreSQL at 127.0.0.1:5432 and Redis at
# 127.0.0.1:6379. Each must answer; one that does not is started with the documented command,
# then waited for (up to 30 s). Fails, naming the service, if one still does not answer.
set -uo pipefail

wait_for() {
  local name="$1"
  shift
  for _ in $(seq 1 60); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "${name} does not answer at 127.0.0.1 after a restart" >&2
  return 1
}

postgres_answers() { pg_isready -h 127.0.0.1 -q; }
redis_answers() { [ "$(redis-cli -h 127.0.0.1 ping 2>/dev/null)" = "PONG" ]; }

status=0
if postgres_answers; then
  echo "postgres: answers"
else
  echo "postgres: down, starting it"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
  wait_for postgres postgres_answers || status=1
fi

if redis_answers; then
  echo "redis: answers"
else
  echo "redis: down, starting it"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for redis redis_answers || status=1
fi
exit "$status"
