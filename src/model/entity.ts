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
   * A capitalised English word that may or may not be a name: opening a sentence ("Sam is…", "Painting is…"),
   * or alone inside one where the tagger sees no proper noun ("walked Scout", "I Love it"). A name only when the
   * memory's scope already knows it (see ingest/entities). Absent on everything else.
   */
  tentative?: true;
}
