/**
 * @module demo/corpus
 * A sample memory set written for Cascade's demo and tests: five months of an engineering team's notes and
 * chats about a payments service, including a decision (configuration in YAML files) that is later reversed.
 *
 * A session is one conversation, so each meeting is its own ("infra-sync 2026-02-03"), not the whole series: a
 * turn is indexed with the turn before it in its session and lifts its session neighbours (ingest/context.ts,
 * query/neighbours.ts), and a series name tied March's load test to a February turn about configuration, which
 * put "Fraud call made parallel" (the load test's successor) fourth for a question about configuration.
 */
import type { MemoryInput } from "../model/types.js";

export const DEMO_NOW = "2026-06-20T09:00:00Z";

export const demoCorpus: MemoryInput[] = [
  { at: "2026-02-02T09:15:00Z", kind: "note", title: "Kick-off: payments service v2", tags: ["planning", "payments"], topic: "projects.payments", text: "Kick-off for payments v2. Goals: cut checkout latency below 300 ms at p95, move card tokenisation out of the monolith, and ship before the summer sale. Owners: Priya (backend), Marco (infra), Lena (product)." },
  { at: "2026-02-03T14:02:00Z", speaker: "Marco", session: "infra-sync 2026-02-03", text: "Our configuration is scattered across environment variables in three deploy scripts. Nobody knows which value is live in staging." },
  { at: "2026-02-03T14:05:00Z", speaker: "Priya", session: "infra-sync 2026-02-03", text: "Proposal: put all service configuration into YAML files in the repository, one file per environment, reviewed like code." },
  { at: "2026-02-05T10:30:00Z", kind: "decision", metadata: { ref: "config-in-yaml" }, title: "Decision: configuration moves to YAML files in the repo", tags: ["decision", "config"], topic: "ops.config", text: "We decided to move every service setting into versioned YAML files (config/staging.yaml, config/prod.yaml). Environment variables are deprecated for configuration. Rationale: reviews, history, and one place to look." },
  { at: "2026-02-11T16:40:00Z", speaker: "Lena", session: "product-weekly 2026-02-11", text: "Customers in Brazil keep asking for Pix payments. Can we fit it into v2 or does it wait for Q3?" },
  { at: "2026-02-12T08:55:00Z", kind: "incident", title: "Checkout workers crash on database failover", tags: ["incident", "postgres"], topic: "ops.incidents", text: "Checkout workers crashed at 08:41 with ECONNRESET when the primary Postgres node failed over. The connection pool did not retry; 2.3% of checkouts failed for six minutes. Fix: retry idempotent queries once with jitter." },
  { at: "2026-02-12T11:20:00Z", speaker: "Marco", session: "incident-review 2026-02-12", text: "Root cause of this morning's outage: pgbouncer dropped every client socket during failover and our driver surfaced the reset instead of reconnecting." },
  { at: "2026-02-19T13:00:00Z", kind: "note", title: "Tokenisation vendor shortlist", tags: ["vendors", "security"], topic: "projects.payments.tokenisation", text: "Shortlist for card tokenisation: Vaultline and Basis Theory. Both are PCI DSS level 1. Vaultline is cheaper per token; Basis Theory has a better SDK for mobile." },
  { at: "2026-02-26T15:10:00Z", speaker: "Priya", session: "backend-sync 2026-02-26", text: "The YAML config loader is merged. Staging now reads config/staging.yaml on boot and refuses to start if a required key is missing." },
  { at: "2026-03-04T09:45:00Z", kind: "incident", title: "Duplicate key errors in the ledger importer", tags: ["incident", "mongodb"], topic: "ops.incidents", text: "The nightly ledger importer failed with E11000 duplicate key error on the transactions collection: the same settlement file was delivered twice by the bank. The importer now checks the file checksum before inserting." },
  { at: "2026-03-10T17:25:00Z", speaker: "Lena", session: "product-weekly 2026-03-10", text: "Good news: the summer sale moved to July 15, which gives us two extra weeks for the checkout work." },
  { at: "2026-03-16T10:00:00Z", kind: "decision", title: "Decision: Vaultline for card tokenisation", tags: ["decision", "vendors", "security"], topic: "projects.payments.tokenisation", text: "We chose Vaultline for card tokenisation. Cost per token was decisive; the weaker mobile SDK is acceptable because the apps call our API, not the vendor directly." },
  { at: "2026-03-18T12:30:00Z", speaker: "Marco", session: "infra-sync 2026-03-18", text: "Load test results: checkout p95 is 410 ms at 800 requests per second. Most of the time goes into the fraud score call, which is synchronous." },
  { at: "2026-03-24T09:05:00Z", speaker: "Priya", session: "backend-sync 2026-03-24", text: "Idea to speed up checkout: call the fraud scoring service in parallel with tokenisation instead of after it. Should save about 120 ms." },
  { at: "2026-04-01T14:00:00Z", kind: "note", title: "Retro: March", tags: ["retro"], topic: "team.retros", text: "Went well: incident response on the importer, vendor decision on time. Went badly: secrets ended up in YAML files in two pull requests and had to be rotated. Action: secret scanning in CI." },
  { at: "2026-04-07T10:10:00Z", speaker: "Marco", session: "infra-sync 2026-04-07", text: "Someone committed the production database password to config/prod.yaml again. I rotated it and added gitleaks to the pipeline." },
  { at: "2026-04-09T16:45:00Z", speaker: "Lena", session: "product-weekly 2026-04-09", text: "Pix is officially in scope for v2. Brazil is 18% of checkout volume and conversion there is ten points lower without it." },
  { at: "2026-04-15T11:00:00Z", kind: "note", title: "Fraud call made parallel", tags: ["performance", "checkout"], topic: "projects.payments.checkout", text: "Fraud scoring now runs in parallel with tokenisation. Checkout p95 dropped from 410 ms to 285 ms in the load test, under the 300 ms goal." },
  { at: "2026-04-22T13:35:00Z", speaker: "Priya", session: "backend-sync 2026-04-22", text: "Keeping YAML files for three environments in sync is painful: every new flag means three pull requests, and staging drifted twice this month." },
  { at: "2026-04-29T09:20:00Z", speaker: "Marco", session: "infra-sync 2026-04-29", text: "Security review says secrets must never live in the repository, encrypted or not. They want them in Vault with short-lived leases." },
  { at: "2026-05-06T15:00:00Z", kind: "decision", supersedes: ["config-in-yaml"], title: "Decision reversed: configuration back to environment variables, secrets in Vault", tags: ["decision", "config", "security"], topic: "ops.config", text: "We are reverting the February decision. Configuration goes back to environment variables, rendered by the deploy pipeline from one typed schema; secrets come from Vault at start-up. The YAML files in the repo are removed by the end of May." },
  { at: "2026-05-06T15:20:00Z", speaker: "Priya", session: "backend-sync 2026-05-06", text: "Actually I am glad we switched back: the env schema gives us validation at deploy time, which was the only thing the YAML files did well." },
  { at: "2026-05-13T10:40:00Z", kind: "note", title: "Pix integration design", tags: ["design", "pix", "brazil"], topic: "projects.payments.pix", text: "Pix payments are asynchronous: the customer pays from their bank app using a QR code and we receive a webhook. Orders wait in a pending state for up to 30 minutes before they expire." },
  { at: "2026-05-20T08:50:00Z", kind: "incident", title: "Webhook storm from the Pix provider", tags: ["incident", "pix"], topic: "ops.incidents", text: "The Pix provider retried every webhook 40 times after a timeout on our side, and the order service hit its connection limit. We now acknowledge webhooks immediately and process them from a queue." },
  { at: "2026-05-27T14:15:00Z", speaker: "Marco", session: "infra-sync 2026-05-27", text: "The last YAML config file is deleted. All services read environment variables validated against the schema, and Vault agents inject the secrets." },
  { at: "2026-06-02T11:00:00Z", kind: "note", title: "Retro: May", tags: ["retro"], topic: "team.retros", text: "Went well: the configuration rollback was finished in three weeks with no outage. Went badly: the Pix webhook incident; we had no load test for inbound webhooks. Action: add webhook replay to the load test suite." },
  { at: "2026-06-09T09:30:00Z", speaker: "Lena", session: "product-weekly 2026-06-09", text: "Launch checklist for the sale: Pix live in Brazil, checkout p95 under 300 ms, on-call rota covering the whole weekend." },
  { at: "2026-06-10T16:05:00Z", speaker: "Priya", session: "backend-sync 2026-06-10", text: "My dog ate my headphones, so if I sound terrible on the call today that is why." },
  { at: "2026-06-16T10:25:00Z", kind: "note", title: "On-call handbook: database failover", tags: ["runbook", "postgres", "on-call"], topic: "ops.runbooks", text: "If checkout errors spike during a Postgres failover, check that the pool retries are enabled (POOL_RETRY=1) and watch the connection reset counter. Do not restart the workers; they reconnect within 20 seconds." },
  { at: "2026-06-18T13:45:00Z", speaker: "Marco", session: "infra-sync 2026-06-18", text: "Staging now mirrors production settings exactly, because both render their environment from the same schema. No drift alerts for three weeks." },
];

/**
 * Questions the demo asks, each showing something fusion does that one channel would not. Each `why` is a claim
 * about what the demo prints; test/demo.test.ts checks every one against the output.
 */
export const demoQueries: { query: string; why: string; k: number }[] = [
  { query: "what did we decide about where configuration lives?", why: "a decision and its reversal: the reversal comes first; the February decision is still shown, marked SUPERSEDED and its score halved", k: 8 },
  { query: "ECONNRESET", why: "an identifier no embedder knows: BM25 and late interaction match it exactly; the graph channel alone adds related memories below it", k: 3 },
  { query: "puppy chewed my earphones", why: "no shared words: dense and late interaction find the paraphrase", k: 3 },
  { query: "card tokenisation vendor", why: "the curated title and tags agree with the body: both rank the vendor decision first", k: 3 },
  { query: "what happened last Tuesday", why: "a question that names only a time: the time channel puts what was written that Tuesday first, with that day's summary as context; the graph channel alone adds related memories below it", k: 3 },
];
