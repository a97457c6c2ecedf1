#!/usr/bin/env bash
# The client as a team installs it, on whatever Node is first on PATH: the package packed
# (`npm pack`, which builds it), installed from the tarball into a fresh project outside the
# checkout (offline: it has no dependencies), every example of examples/ compiled there under
# `strict` without `skipLibCheck`, then run against a live service.
#
#   clients/typescript/scripts/smoke.sh BASE_URL API_KEY
#   e.g. PATH=/path/to/node22/bin:$PATH clients/typescript/scripts/smoke.sh http://127.0.0.1:3000 wsk_live_…
#
# The compiler is the checkout's (node_modules/typescript), and so are Node's types for the
# examples' `process.env`, so nothing is downloaded.
set -euo pipefail
base_url=${1:?usage: smoke.sh BASE_URL API_KEY}
api_key=${2:?usage: smoke.sh BASE_URL API_KEY}
client="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(cd "$client/../.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { echo "client smoke ($(node --version)): $*"; }

tarball=$(cd "$client" && npm pack --silent --pack-destination "$work" | tail -n 1)
say "packed $tarball ($(du -k "$work/$tarball" | cut -f1) KB)"

project="$work/project"
mkdir -p "$project/src"
cp "$client"/examples/*.ts "$project/src/"
cat >"$project/package.json" <<JSON
{ "name": "client-smoke", "private": true, "type": "module" }
JSON
cat >"$project/tsconfig.json" <<JSON
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "lib": ["ES2023"],
    "strict": true, "skipLibCheck": false, "noUncheckedIndexedAccess": true,
    "typeRoots": ["$repo/node_modules/@types"], "types": ["node"],
    "rootDir": "src", "outDir": "out"
  },
  "include": ["src"]
}
JSON
(cd "$project" && npm install --offline --no-audit --no-fund --silent "$work/$tarball")
say "installed $(node -p "require('$project/node_modules/@workspace-read-api/client/package.json').version") into a project outside the checkout"
node "$repo/node_modules/typescript/bin/tsc" -p "$project"
say "compiled $(ls "$project/src" | tr '\n' ' ')under strict, skipLibCheck false"
for example in "$project"/out/*.js; do
  output=$(cd "$project" && WORKSPACE_API_URL="$base_url" WORKSPACE_API_KEY="$api_key" node "$example")
  [ -n "$output" ] || { echo "client smoke: $(basename "$example") printed nothing" >&2; exit 1; }
  say "$(basename "$example") printed $(printf '%s\n' "$output" | wc -l) lines, the first: $(printf '%s\n' "$output" | head -n 1)"
done
