/**
 * @module text/wink-model
 * wink's English lite model, assembled from the package's own parts except its core loader. The package's core
 * loader (dist/read-core-model.js) requires the 2.9 MB core JSON, then deep-copies it on every call with
 * JSON.parse(JSON.stringify(...)) so that each call may mutate its copy: about 0.1 s of CPU to parse and 0.09 s to
 * copy. wink calls it once per instance and Cascade makes one instance, so here the JSON file is parsed once into
 * an object of its own (what the copy was) and the same transformations follow: the model wink receives is equal
 * to the package's (test/wink-model.test.ts compares them), one parse cheaper.
 *
 * CommonJS parts required by path: the package has no exports map, and its version is pinned by the lock file.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const PACKAGE = "wink-eng-lite-web-model";

/** wink's view of a language model: loaders called once by `winkNLP(model)`, and addons. */
export type WinkModel = Record<string, unknown>;

function bufferFromBase64(data: string): ArrayBuffer {
  // the package decodes with atob and a loop; the bytes of valid base64 are the same, decoded natively
  const bytes = Buffer.from(data, "base64");
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** dist/read-core-model.js and dist/load-core-model.js, on a fresh parse of the core JSON instead of a deep copy. */
function coreLoader(jsonPath: string): () => unknown {
  return () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const model = JSON.parse(readFileSync(jsonPath, "utf8")) as any;
    const packing = model.packing;
    const featuresData = model.features;
    const pos = model.pos;
    model.lexicon = new Uint32Array(bufferFromBase64(model.lexicon));
    model.xpansions = new Uint32Array(bufferFromBase64(model.xpansions));
    for (const f in model.packing.layout) {
      if (packing.layout[f][3] === 0) {
        featuresData[f].hash = Object.create(null);
        for (let k = 0; k < featuresData[f].list.length; k += 1) featuresData[f].hash[featuresData[f].list[k]] = k;
      }
    }
    featuresData.lexeme.hash = Object.create(null);
    for (let k = 0; k < featuresData.lexeme.list.length; k += 1) featuresData.lexeme.hash[featuresData.lexeme.list[k]] = k;
    const clusters = featuresData.posClusters.list;
    for (let k = 0; k < clusters.length; k += 1) clusters[k] = new Set((clusters[k] as string).split("_").map((e) => pos.hash[e] || 0));
    // load-core-model.js
    model.packing.efList = [];
    for (const f in model.packing.layout) {
      if (model.packing.layout[f][3] === 0) {
        model.features[f].intrinsicSize = model.features[f].list.length;
        model.features[f].index = model.features[f].list.length;
        model.features[f].maxIndex = model.packing.layout[f][1] >>> model.packing.layout[f][2];
      }
      if (model.packing.layout[f][4] === 1) model.packing.efList.push(f);
    }
    model.features.lexeme.intrinsicSize = model.features.lexeme.list.length;
    model.features.lexeme.index = model.features.lexeme.list.length;
    return model;
  };
}

/** The model as dist/model.js builds it, with the core loader above. */
export function englishLiteModel(): WinkModel {
  const require = createRequire(import.meta.url);
  const dist = (file: string) => require(`${PACKAGE}/dist/${file}`) as unknown;
  const model: WinkModel = Object.create(null);
  model.core = coreLoader(require.resolve(`${PACKAGE}/dist/languages/cur/models/eng-core-web-model.json`));
  model.sbd = dist("load-sbd-model.js");
  model.pos = dist("load-pos-model.js");
  model.ner = dist("load-ner-model.js");
  model.negation = dist("load-negation-model.js");
  model.sa = dist("load-sa-model.js");
  model.metaCER = dist("load-cer-meta-model.js");
  model.featureFn = dist("feature.js");
  const addons: Record<string, unknown> = Object.create(null);
  addons.stem = dist("porter-stemmer.js");
  addons.lemmatize = dist("lemmatize.js");
  addons.readabilityStats = dist("readability-stats.js");
  addons.wordVectors = undefined;
  model.addons = addons;
  return model;
}
