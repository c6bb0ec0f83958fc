/** Messages between the search pool (text-search-pool.ts) and its workers (text-search.worker.ts). */

/** What a worker is started with: the bank's texts and index groups, as `BigramTextIndex` takes them. */
export interface WorkerBank {
  texts: string[];
  groups: string[];
}

export interface SearchRequest {
  id: number;
  texts: string[];
  group: string;
  minSimilarity: number;
}

/**
 * The answer to request `id` (−1: the worker's index is built): for k probes, k counts, then each
 * probe's positions in turn.
 */
export interface SearchReply {
  id: number;
  flat: Int32Array;
}
