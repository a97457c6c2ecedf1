#!/usr/bin/env bash
# The smoke on one Node line (.ci/run runs it on Node 22 and Node 26 after `npm test` on Node 24):
#
#   .ci/smoke.sh NODE_BIN_DIR
#
# in a copy of the checkout whose node_modules are hard links to the one `npm ci` left (so .ci/run
# runs the lines side by side): the service built by that Node, the demo workspace served by it,
# `workspace-api contract-test` run by it against the service, Prism's validation proxy
# (scripts/prism-check.mjs) in front of it, and the official client's package
# (clients/typescript/scripts/smoke.sh) installed, compiled and run against it.
# Checks that must hold on every supported line join here, not `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: .ci/smoke.sh NODE_BIN_DIR}
export PATH="$bin:$PATH"
version=$(node --version)
started=$(date +%s)
say() { echo "smoke on Node $version: $* ($(( $(date +%s) - started )) s)"; }
dir=$(mktemp -d)
server=''
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
mkdir "$dir/app"
tar --exclude=./node_modules --exclude=./dist --exclude=./.git -cf - . | tar -xf - -C "$dir/app"
cp -al node_modules "$dir/app/node_modules"
cd "$dir/app"

npm run -s build
say "dist/ built"
# The demo workspace; the checker sends far more than 120 requests a minute.
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
say "the demo workspace served at $url"
# Reads only: the demo workspace has no webhook, so the writes and the reads of a webhook are not
# reached, and say so.
unreached=$(node -e "const d=require('./generated/openapi.json'); const ids=[];
  for (const [p, item] of Object.entries(d.paths)) for (const [m, op] of Object.entries(item))
    if (op.operationId && (!['get', 'head'].includes(m) || p.includes('{webhook_id}'))) {
      ids.push(op.operationId);
      // The checker checks the HEAD of each GET under the name head + the GET's operationId.
      if (m === 'get' && p.includes('{webhook_id}')) ids.push('head' + op.operationId.replace(/^get(?=[A-Z])/, '').replace(/^./, (c) => c.toUpperCase()));
    }
  console.log(ids.join(','))")
node dist/cli/main.js contract-test --base-url "$url" --key "$key" --token "$token" --seed 9 --allow-unreached "$unreached"
kill -0 "$server" || { echo "the server died during the check:" >&2; cat "$dir/serve.err" >&2; exit 1; }
say "contract-test passed"
# Prism's validation proxy in front of the service: no response violation on any read.
node scripts/prism-check.mjs --base-url "$url" --key "$key" >"$dir/prism.out" 2>&1 || { cat "$dir/prism.out" >&2; exit 1; }
head -1 "$dir/prism.out"
say "prism proxy found no response violation"
# The official client as a team installs it: packed, installed from the tarball into a project
# outside the checkout, compiled strict, its example run against the service.
bash clients/typescript/scripts/smoke.sh "$url" "$key" >"$dir/client.out" 2>&1 || { cat "$dir/client.out" >&2; exit 1; }
grep '^client smoke' "$dir/client.out"
say "the official client installed, compiled and ran its example"
