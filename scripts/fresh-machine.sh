#!/usr/bin/env bash
# Runs the suite the way a new machine would: a fresh clone of HEAD, an empty npm cache, an empty
# word-vector cache, a temporary folder of its own, another time zone, then `npm ci` and `npm test` twice in a row
# (the second run proves no test depends on what the first left behind).
# Usage: scripts/fresh-machine.sh [RUNS]   (default 2). Keeps nothing: everything lives under one temp folder.
set -euo pipefail
runs="${1:-2}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/cascade-fresh-XXXXXX")"
trap 'rm -rf "$work"' EXIT
git clone --quiet "$repo" "$work/clone"
mkdir -p "$work/npm-cache" "$work/xdg-cache" "$work/tmp"
export npm_config_cache="$work/npm-cache" XDG_CACHE_HOME="$work/xdg-cache" TMPDIR="$work/tmp"
unset CASCADE_DB CASCADE_CONFIG CASCADE_CACHE_DIR CASCADE_TOKEN
cd "$work/clone"
echo "fresh-machine: npm ci in $work/clone (empty cache $npm_config_cache)" >&2
npm ci --no-audit --no-fund
for i in $(seq 1 "$runs"); do
  tz=$([ $((i % 2)) -eq 1 ] && echo "Pacific/Kiritimati" || echo "America/St_Johns")
  echo "fresh-machine: npm test, run $i of $runs, TZ=$tz" >&2
  TZ="$tz" npm test
done
echo "fresh-machine: passed $runs run(s) from an empty cache" >&2
