import { SYNC } from "@/core/constants";
import type { RouterInputs, RouterOutputs } from "@/web/lib/trpc";
import { settleInCopy } from "./local-study";
import type { OfflineStore } from "./store";

export interface RefusedAnswer {
  id: string;
  reason: string;
}

type Send = (input: RouterInputs["study"]["sync"]) => Promise<RouterOutputs["study"]["sync"]>;

/**
 * An answer left waiting for its rating (the tab was closed, the app signed out) is queued unrated,
 * as the live flow keeps an answer nobody rated.
 */
export async function queueLeftoverAnswer(store: OfflineStore): Promise<void> {
  const pending = await store.pending();
  if (!pending) return;
  const copy = await store.copy();
  await store.settle(pending.review, copy && settleInCopy(copy, pending, null));
}

/**
 * Sends the queue in the order the answers were given, a batch at a time, and forgets each answer the
 * server settled: stored now or before (duplicate), or refused for good. A failure leaves the rest
 * queued for the next try; sending the same batch again is harmless (decision 200).
 */
export async function sendQueued(
  store: OfflineStore,
  send: Send,
  onProgress: () => void = () => {},
): Promise<{ sent: number; refused: RefusedAnswer[] }> {
  await queueLeftoverAnswer(store);
  let sent = 0;
  const refused: RefusedAnswer[] = [];
  for (;;) {
    const batch = await store.queued(SYNC.BATCH);
    if (batch.length === 0) break;
    const answer = await send({ reviews: batch.map(({ seq: _seq, ...review }) => review) });
    await store.forget(answer.results.map((r) => r.id));
    sent += answer.applied + answer.duplicates;
    for (const r of answer.results) {
      if (r.status === "refused")
        refused.push({ id: r.id, reason: r.reason ?? "Refused by the server" });
    }
    onProgress();
  }
  return { sent, refused };
}
