/**
 * @module embed/vector-math
 * The few vector operations the engine needs, on Float32Array.
 */

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Scales `v` to unit length in place; the zero vector stays zero. Returns `v`. */
export function normalizeInPlace(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v));
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

export function isZero(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) return false;
  return true;
}

/** Removes the projection of `v` on the unit vector `u`, in place. */
export function removeComponentInPlace(v: Float32Array, u: Float32Array): void {
  const p = dot(v, u);
  for (let i = 0; i < v.length; i++) v[i] -= p * u[i];
}

/** A copy of a stored vector (blobs need not be 4-byte aligned). */
export function fromBlob(b: Buffer): Float32Array {
  const v = new Float32Array(b.byteLength / 4);
  new Uint8Array(v.buffer).set(b);
  return v;
}

export function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}
