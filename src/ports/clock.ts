/**
 * @module ports/clock
 * "Now" as a port, so that every relative computation can be fixed (`--now`) and runs are reproducible.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function fixedClock(ms: number): Clock {
  return { now: () => ms };
}
