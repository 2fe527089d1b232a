/**
 * @module ports/embedder
 * The two model interfaces the engine depends on. Implementations live in src/embed/; the engine picks none.
 */

/** Turns texts into unit-length vectors of a fixed dimension. */
export interface Embedder {
  /** Names the vector space: a store built with one embedder refuses to be searched with another. */
  readonly id: string;
  readonly dimensions: number;
  /** One unit-length vector per text, in order. A text with no known word gets the zero vector. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/**
 * Token vectors for late interaction (ColBERT-style MaxSim). A static model's token vector depends on the
 * word alone, so the store keeps only which words each chunk holds and asks the model for the vectors.
 * A contextual model (a real ColBERT checkpoint) would add stored per-chunk vectors behind this same port.
 */
export interface TokenVectors {
  readonly id: string;
  readonly dimensions: number;
  /** The unit-length vector of one lowercased word, or null when the model does not know it. */
  termVector(term: string): Float32Array | null;
}
