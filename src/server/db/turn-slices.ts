/**
 * Turns on the embedded database in the order requests arrived (issue 35 item 1, decision 434).
 *
 * PGlite runs a statement synchronously in WebAssembly and resolves it in a microtask, so a queue of
 * statements waiting for its lock runs back to back in one microtask drain: the requests the event
 * loop has already read but not yet handed to their handlers wait for the whole queue, then form the
 * next one. Under load a request was served either in the current drain or after the next one, and
 * the study loop's p99 was twice its median. A statement that finds the current drain has held the
 * database longer than a slice waits for the event loop's next check phase first, so requests read
 * meanwhile join the queue in the order they came.
 */

/** Long enough that a quiet server never waits; short enough that a queue keeps its order. */
export const TURN_SLICE_MS = 20;

export interface TurnClock {
  now(): number;
  /** Runs `fn` after the event loop's pending I/O callbacks (setImmediate in the server). */
  later(fn: () => void): void;
}

const eventLoop: TurnClock = {
  now: () => performance.now(),
  later: (fn) => setImmediate(fn),
};

/**
 * A function to call before each statement: undefined to go on at once, or a promise to wait for
 * when the statements of the current drain have run for `sliceMs` or more. 0 turns slicing off.
 */
export function turnSlices(
  sliceMs: number = TURN_SLICE_MS,
  clock: TurnClock = eventLoop,
): () => Promise<void> | undefined {
  let sliceStart = 0;
  let inSlice = false;
  return () => {
    if (sliceMs <= 0) return undefined;
    const now = clock.now();
    if (!inSlice) {
      // The first statement since the event loop's last turn starts a slice; the turn ends it.
      inSlice = true;
      sliceStart = now;
      clock.later(() => (inSlice = false));
      return undefined;
    }
    if (now - sliceStart < sliceMs) return undefined;
    return new Promise<void>((resolve) => clock.later(resolve));
  };
}
