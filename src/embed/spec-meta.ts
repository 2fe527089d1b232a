/**
 * @module embed/spec-meta
 * Where an embedder spec may come from, asked without reading it: the key a store keeps it under, and whether
 * the environment names one. Apart from embed/spec.ts (its schema, zod) so that a command that only reads a store
 * (api/reader.ts) can tell that it has the default embedder without loading that schema.
 */

/** The key under which a store keeps the spec of the embedder it was built with. */
export const EMBEDDER_SPEC_META = "embedder.spec";

/** Whether the environment sets any variable `embedderSpecFromEnv` (embed/spec.ts) reads: a spec, or a mistake it reports. */
export function envNamesEmbedder(env: NodeJS.ProcessEnv = process.env): boolean {
  const { CASCADE_EMBED_URL: baseURL, CASCADE_EMBED_MODEL: model, CASCADE_EMBED_DIMENSIONS: dims, CASCADE_EMBED_ONNX: folder } = env;
  return folder !== undefined || Boolean(baseURL || model || dims);
}
