/**
 * A worker thread of the duplicate check's search pool (text-search-pool.ts, decision 422): builds its
 * own `BigramTextIndex` from the bank's texts, sent once as workerData, then answers `searchMany`
 * requests of the main thread. Bundled as text-search-worker.js beside the server and the CLI
 * (scripts/build.mjs); loaded through tsx from the source.
 */
import { parentPort, workerData } from "node:worker_threads";
import { BigramTextIndex } from "../../../core/similarity/text-index";
import type { SearchReply, SearchRequest, WorkerBank } from "./text-search-protocol";

const bank = workerData as WorkerBank;
const index = new BigramTextIndex(bank.texts, bank.groups);
const port = parentPort!;
port.on("message", (request: SearchRequest) => {
  const found = index.searchMany(request.texts, request.group, request.minSimilarity);
  // Flattened into one typed array (moved, not copied): a count per probe, then the positions.
  let total = found.length;
  for (const f of found) total += f.length;
  const flat = new Int32Array(total);
  let at = found.length;
  found.forEach((f, k) => {
    flat[k] = f.length;
    flat.set(f, at);
    at += f.length;
  });
  const reply: SearchReply = { id: request.id, flat };
  port.postMessage(reply, [flat.buffer]);
});
port.postMessage({ id: -1, flat: new Int32Array(0) } satisfies SearchReply);
