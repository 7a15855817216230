/**
 * The time every auth and mail rule reads. Tests move it forward to cover idle timeouts,
 * lockouts and expiry without sleeping. It lives on globalThis because the bundled server
 * (dist/server) and the test file each carry their own copy of this module.
 */
const KEY = Symbol.for('procurement.clock');
type Slot = { offsetMs: number };

function slot(): Slot {
  const g = globalThis as unknown as Record<symbol, Slot>;
  g[KEY] ??= { offsetMs: 0 };
  return g[KEY];
}

export function now(): Date {
  return new Date(Date.now() + slot().offsetMs);
}

/** Moves the clock forward (tests only). */
export function advanceClock(ms: number): void {
  slot().offsetMs += ms;
}

export function resetClock(): void {
  slot().offsetMs = 0;
}
