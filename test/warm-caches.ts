/**
 * Run once by scripts/run-tests.sh before the test files start, several at once: the word-vector cache (the
 * default embedder's vectors, converted from the package's 307 MB of JSON on first use) is built here, once,
 * instead of by every file that would find it missing at the same moment on a fresh machine.
 */
import { loadGloveTable } from "../src/index.js";

loadGloveTable();
