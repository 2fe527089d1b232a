/**
 * @module model/entity
 * Entities as nodes of the memory graph: what a memory mentions (a person, a product, a place, an identifier).
 */

export type EntityKind = "person" | "name" | "identifier";

/** An entity with the number of memories that mention it. */
export interface EntityInfo {
  id: string;
  /** The name as first written. */
  name: string;
  /** The normalised form aliases are merged on. */
  key: string;
  kind: EntityKind;
  memories: number;
}

/** An entity as an extractor found it in one memory. */
export interface ExtractedEntity {
  /** The name as written (first mention). */
  name: string;
  /** The normalised key aliases are merged on (see entities/extract normalizeEntity). */
  key: string;
  kind: EntityKind;
  /**
   * A word that opens a sentence and is also an English word ("Sam is…", "Grace started…", "Painting is…"):
   * a name only when the store already knows it as one (see ingest/entities). Absent on everything else.
   */
  tentative?: true;
}
