#!/bin/bash
# Probe for docs/RELIABILITY.md: a 3,000-memory SQLite store, `cascade migrate` started five times and
# killed with SIGKILL after a growing delay, `stats` on the target after each kill, then one rerun that resumes.
# Prints how far each killed copy got, what stats said, the resumed counts and the snapshots left behind.
# Usage: npm run build && scripts/migrate-kills.sh [delays in seconds, default "1.2 1.4 1.6 1.8 2.0"]
set -u
CLI="$(cd "$(dirname "$0")/.." && pwd)/dist/src/surfaces/cli/main.js"
work=$(mktemp -d) && cd "$work" || exit 1
export TMPDIR="$work/tmp" && mkdir -p "$TMPDIR" # the CLI's snapshots, counted here alone
snapshots() { ls "$TMPDIR" | grep -c cascade-snapshot-; }
node -e 'require("fs").writeFileSync("notes.jsonl", Array.from({ length: 3000 }, (_, i) => JSON.stringify({ text: `Note ${i}: the ${i % 11} team moved the ${i % 7} service to rack ${i % 13} after review ${i}`, at: `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00Z` })).join("\n"))'
node "$CLI" import notes.jsonl --db source.db > /dev/null
for delay in ${1:-1.1 1.2 1.2 1.3 1.3}; do
  node "$CLI" migrate --from source.db --to target.db > /dev/null & pid=$!
  sleep "$delay"
  if ! kill -9 "$pid" 2> /dev/null; then echo "the copy finished within ${delay} s: no more kills"; break; fi
  wait "$pid" 2> /dev/null
  node "$CLI" stats --db target.db > /dev/null 2> err; code=$?
  echo "killed after ${delay} s: snapshots $(snapshots); stats exit $code: $(cat err)"
done
start=$(date +%s.%N)
node "$CLI" migrate --from source.db --to target.db --json > report.json; code=$?
echo "rerun: exit $code in $(echo "$(date +%s.%N) - $start" | bc) s; $(node -e 'const r = require("./report.json"); console.log("ok", r.ok, JSON.stringify(r.namespaces.map((n) => [n.namespace, n.source.memories, n.target.memories])))')"
echo "snapshots left: $(snapshots)"
rm -rf "$work"
