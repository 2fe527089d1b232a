/**
 * The PostgreSQL server the server tests run against: CASCADE_PG_URL (.ci/run starts one: Debian's
 * PostgreSQL 15 in a temporary data directory). Without it those tests are skipped with PG_SKIP's reason,
 * unless CASCADE_REQUIRE_PG=1 (as .ci/run sets): then a missing URL fails the test file that imports this.
 */
const url = process.env.CASCADE_PG_URL || undefined;
if (!url && process.env.CASCADE_REQUIRE_PG === "1") {
  throw new Error("CASCADE_REQUIRE_PG=1 but CASCADE_PG_URL is not set: the PostgreSQL server tests cannot run (.ci/run starts a server and sets both)");
}

export const PG_URL: string | undefined = url;

export const PG_SKIP: string | false = url ? false : "needs a PostgreSQL server (ltree; pgvector optional): set CASCADE_PG_URL";
