/**
 * The time every auth and mail rule reads. Tests move it forward to cover idle timeouts,
 * lockouts and expiry without sleeping (through the server bundle's own copy, bundle-api.ts).
 */
let offsetMs = 0;

export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

/** The same time in milliseconds, with no Date made (the visit counter asks on every page view). */
export function nowMs(): number {
  return Date.now() + offsetMs;
}

/** Moves the clock forward (tests only). */
export function advanceClock(ms: number): void {
  offsetMs += ms;
}

export function resetClock(): void {
  offsetMs = 0;
}
