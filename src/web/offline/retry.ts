/**
 * Milliseconds before the next try after `failures` failed syncs in a row: 2 s, 4 s, 8 s … at most 5
 * minutes. A module of its own so the signed-in frame can schedule retries without loading the offline
 * scheduler (local-study.ts and FSRS), which it asks for only when there is something to send.
 */
export function retryDelayMs(failures: number): number {
  return Math.min(300_000, 1_000 * 2 ** Math.max(1, failures));
}
