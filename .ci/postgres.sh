#!/usr/bin/env bash
# Starts a private PostgreSQL 15 cluster for tests (installing Debian's package if missing) and
# exports PG_URL. Source it, then call pg_start; pg_stop removes the cluster.
# A free port unless one is given, so a cluster left on a well-known port never collides.
PG_PORT="${PG_PORT:-$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}"
PG_DIR="${PG_DIR:-$(mktemp -d /tmp/ponte-pg.XXXXXX)}"

pg_bin() {
  local dir
  for dir in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/pg_ctl" ]; then echo "$dir"; return 0; fi
  done
  return 1
}

pg_install() {
  if pg_bin >/dev/null; then return 0; fi
  echo "== installing PostgreSQL 15 from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql-15 >/dev/null || apt-get install -y -qq postgresql >/dev/null
}

pg_start() {
  pg_install
  local bin; bin="$(pg_bin)"
  local owner="postgres"
  id -u "$owner" >/dev/null 2>&1 || owner="$(id -un)"
  mkdir -p "$PG_DIR"
  chown "$owner" "$PG_DIR"
  local run=(); [ "$(id -u)" = 0 ] && run=(runuser -u "$owner" --)
  "${run[@]}" "$bin/initdb" -D "$PG_DIR/data" -U ponte --auth=trust -E UTF8 >/dev/null
  "${run[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off" start >/dev/null
  "${run[@]}" "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U ponte ponte
  export PG_URL="postgres://ponte@127.0.0.1:$PG_PORT/ponte"
  export PG_RUN_AS="$owner"
  echo "== PostgreSQL running at $PG_URL"
}

pg_stop() {
  local bin; bin="$(pg_bin)" || return 0
  local run=(); [ "$(id -u)" = 0 ] && run=(runuser -u "${PG_RUN_AS:-postgres}" --)
  if [ -f "$PG_DIR/data/postmaster.pid" ]; then
    "${run[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null || true
  fi
  rm -rf "$PG_DIR"
}
