#!/usr/bin/env bash
# Runs the built suite (`npm test` builds first): every test file (dist/test/**/*.test.js; the helpers, fixtures
# and child-process scripts beside them hold no tests), two processes at a time, the slowest files first, each in
# its own process, then the others several to a process (scripts/run-tests.mjs, which says why and ends by printing
# the slowest processes' durations). The suite is CPU-bound: on two cores
# a third file at a time made it slower (725 s of wall time and 1,380 s of CPU against 627 s and 1,166 s with two,
# one whole run each, no PostgreSQL server): the files that wait on their processes are outweighed by the CPU
# time three files at once lose to one another.
# Node flags are passed to every test file's process, e.g. scripts/run-tests.sh --test-name-pattern=doctor.
# Usage: scripts/run-tests.sh [NODE_TEST_FLAGS...]   CASCADE_TEST_CONCURRENCY=N changes the two.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every new PGlite database of the run (dozens, in the files and the CLI processes they start) is unpacked from one
# made by initdb here instead of running initdb itself: backends/postgres/open (newPglite) reads this variable.
work=$(mktemp -d "${TMPDIR:-/tmp}/cascade-run-tests.XXXXXX")
trap 'rm -rf "$work"' EXIT
export CASCADE_PGLITE_TEMPLATE="$work/pglite-template.tar"
# Shared fixtures, built once before the files start at once (each would otherwise build its own copy).
node --liftoff-only dist/test/warm-caches.js
# --liftoff-only: V8 compiles PGlite's PostgreSQL (WebAssembly) with its baseline compiler only. By default it also
# recompiles the module's hot functions with its optimising compiler in the background, which costs a test file about
# 2 s of CPU for each PGlite it starts and pays back only over minutes of queries (postgres-engine 24.6 -> 21.4 CPU s,
# contract/postgres 31.2 -> 28.2, one pair each run side by side). No other code of the suite is WebAssembly; the flag
# reaches every test file's process (not the CLI processes the files start).
node --liftoff-only "$@" scripts/run-tests.mjs
