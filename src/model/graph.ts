/**
 * @module model/graph
 * Types of the memory graph: typed, directed, bi-temporal edges between memories.
 */

export const EDGE_TYPES = ["supersedes", "contradicts", "refines", "derived_from", "summarizes", "relates_to"] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

export const PROVENANCES = ["user", "api", "heuristic", "llm"] as const;
export type Provenance = (typeof PROVENANCES)[number];

/** An edge `from → to` ("from supersedes to"). Times are ms since the epoch. */
export interface Edge {
  id: string;
  type: EdgeType;
  from: string;
  to: string;
  /** Event time: when the relation starts (and stops) holding in the world. */
  validFrom: number;
  validTo: number | null;
  /** Record time: when Cascade learned of it, and when it was taken back. */
  recordedAt: number;
  retractedAt: number | null;
  provenance: Provenance;
  confidence: number;
  reason: string | null;
  /**
   * The statement (a sentence) of the older memory that this edge replaces, or null for all it says. A long
   * message keeps standing for its other statements when one of them changes: it is partly current, not superseded.
   */
  statement: string | null;
}

export type EdgeDraft = Omit<Edge, "id" | "retractedAt" | "statement"> & { statement?: string | null };

/** A detected revision below the confidence threshold, waiting for a person. */
export interface Suggestion {
  id: string;
  from: string;
  to: string;
  confidence: number;
  reason: string;
  createdAt: number;
  status: "open" | "accepted" | "rejected";
}

/** The two clocks a graph question is asked at: the world's (`asOf`) and Cascade's knowledge (`knownAt`). */
export interface GraphTime {
  asOf: number;
  knownAt: number;
}
