import type { CommitItem } from "../plan";
import { ankiCommitQuestion, type AnkiCommitQuestion, type AnkiPlan } from "./plan";
import { uploadDeckImages, type UploadImage } from "./upload";

export interface AnkiCommitPreparation {
  /** Sends one image and answers its stored hash (`imports.uploadMedia`). */
  upload: UploadImage;
  keepProgress: boolean;
  onProgress?: (done: number, total: number) => void;
}

/**
 * The step before an Anki commit, the same for the web and the CLI (decision 240): upload the
 * images of the drafts that will be written (a skipped one's are not sent), then each draft as
 * imports.commit takes it, with its action. `actions` go index for index with `plan.drafts`.
 */
export async function prepareAnkiCommit(
  plan: AnkiPlan,
  media: ReadonlyMap<string, Uint8Array>,
  actions: readonly Omit<CommitItem, "question">[],
  { upload, keepProgress, onProgress }: AnkiCommitPreparation,
): Promise<CommitItem<AnkiCommitQuestion>[]> {
  const needed = new Set(
    plan.drafts.flatMap((d, i) => (actions[i]!.action === "skip" ? [] : d.images)),
  );
  const hashes = await uploadDeckImages(
    plan.images.filter((n) => needed.has(n)),
    media,
    upload,
    onProgress,
  );
  return plan.drafts.map((draft, i) => {
    const { action, hadDuplicate } = actions[i]!;
    return {
      question: ankiCommitQuestion(draft, plan.views[i]!, { hashes, keepProgress }),
      action,
      ...(hadDuplicate === undefined ? {} : { hadDuplicate }),
    };
  });
}
