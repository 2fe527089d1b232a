#!/usr/bin/env bash
# Runs the built suite (`npm test` builds first): every test file (dist/test/**/*.test.js; the helpers, fixtures
# and child-process scripts beside them hold no tests), three files at a time, the slowest first
# (scripts/run-tests.mjs, which ends by printing the slowest files' durations). Most files spend much of their time
# waiting on the processes they start (the CLI, servers, writers), so a third file keeps two cores busy.
# Node flags are passed to every test file's process, e.g. scripts/run-tests.sh --test-name-pattern=doctor.
# Usage: scripts/run-tests.sh [NODE_TEST_FLAGS...]   CASCADE_TEST_CONCURRENCY=N changes the three.
set -euo pipefail
cd "$(dirname "$0")/.."
# Shared fixtures, built once before the files start at once (each would otherwise build its own copy).
node dist/test/warm-caches.js
exec node "$@" scripts/run-tests.mjs
