import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { Spinner } from "@/web/components/ui/spinner";
import { inBackgroundAfterLoad } from "@/web/lib/after-paint";

/**
 * The import steps after a file is chosen, each a chunk of its own: the Import page's first chunk
 * holds only the tabs' upload areas, so a phone paints them without Radix Select, zod, FSRS or the
 * duplicate check (issue 35 item 2, decision 421). A tab fetches its later steps in the background
 * once it is up (`usePrefetchSteps`), so reaching a step does not wait for its code.
 */
const loaders = {
  configure: () => import("./configure-step"),
  review: () => import("./review-step"),
  detection: () => import("./duplicate-detection"),
  complete: () => import("./import-complete"),
  deck: () => import("./anki-deck-steps"),
  // The checks of a file's rows before the duplicate check (with the schemas, so zod).
  plan: () => import("@/core/import/plan"),
};
export type StepName = keyof typeof loaders;

export const loadPlan = loaders.plan;

export const ConfigureStep = lazy(() =>
  loaders.configure().then((m) => ({ default: m.ConfigureStep })),
);
export const ReviewStep = lazy(() => loaders.review().then((m) => ({ default: m.ReviewStep })));
export const RowNoteList = lazy(() => loaders.review().then((m) => ({ default: m.RowNoteList })));
export const DuplicateDetection = lazy(() =>
  loaders.detection().then((m) => ({ default: m.DuplicateDetection })),
);
export const ImportComplete = lazy(() =>
  loaders.complete().then((m) => ({ default: m.ImportComplete })),
);
export const DeckReview = lazy(() => loaders.deck().then((m) => ({ default: m.DeckReview })));
export const DeckDetection = lazy(() => loaders.deck().then((m) => ({ default: m.DeckDetection })));

/** Fetches the named steps' chunks once the page is up; a failure is seen again when a step shows. */
export function usePrefetchSteps(names: readonly StepName[]) {
  const key = names.join(",");
  useEffect(
    () =>
      inBackgroundAfterLoad(() => {
        for (const name of key.split(",") as StepName[]) void loaders[name]().catch(() => {});
      }),
    [key],
  );
}

/** A later step, with a spinner for the moment its chunk may still be on its way. */
export function StepSuspense({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spinner label="Loading..." showLabel />}>{children}</Suspense>;
}
