/**
 * imports.checkDuplicates (decision 051): incoming questions against the importer's visible bank,
 * indexed and kept in memory (visible-bank.ts), scored by the core reference. Read-only.
 */
import type { z } from "zod";
import { FLASHCARD, IMPORT_LETTERS } from "../../../core/constants";
import {
  MIN_FLAGGED_TEXT_SIMILARITY,
  similarityKey,
  type DuplicateQuestion,
} from "../../../core/similarity";
import {
  FLASHCARD_DUPLICATE_SIMILARITY,
  scoreFlashcardCandidates,
} from "../../../core/similarity/flashcards";
import type { Db } from "../../db/client";
import { questionJsonById } from "../questions/question-access";
import { numberKey, textGroup, visibleBank, type VisibleBank } from "./visible-bank";
import type { CheckDuplicatesResult, DuplicateResultJson, ZCheckQuestion } from "./imports.types";

type CheckQuestion = z.output<typeof ZCheckQuestion>;

/** The incoming question as the core reference reads it (null options dropped). */
export function toDuplicateQuestion(q: CheckQuestion): DuplicateQuestion {
  const options: Record<string, string> = {};
  for (const [letter, text] of Object.entries(q.options ?? {})) {
    if (typeof text === "string") options[letter.trim().toUpperCase()] = text;
  }
  const out: DuplicateQuestion = {
    text: q.text,
    options,
    part: q.part ?? null,
    year: q.year ?? null,
    number: q.number ?? null,
  };
  if (q._id) out._id = q._id;
  return out;
}

const label = (v: unknown): string =>
  typeof v === "number" && Number.isFinite(v) ? String(v) : typeof v === "string" ? v.trim() : "";

/** Whole numbers only: the database columns are integers, and the reference compares exactly. */
function wholeNumber(v: unknown): number | null {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isSafeInteger(n) && Math.abs(n) < 2 ** 31 ? n : null;
}

/** Same text and options, ignoring case and whitespace (and the same part unless crossPart). */
function repeatKey(q: DuplicateQuestion, crossPart: boolean): string | null {
  const text = similarityKey(q.text);
  if (text === "") return null;
  const options = IMPORT_LETTERS.map((l) => similarityKey(q.options[l]));
  return [crossPart ? "" : label(q.part), text, ...options].join("\u0000");
}

/**
 * Positions (in the visible bank) worth scoring for each incoming question: every text similar enough
 * to make a flagged duplicate (exact, so flags and best matches are the reference's), and every
 * question with the same part, year and number. The texts of one index group are searched together
 * (`BigramTextIndex.searchMany`, which reads the index once per batch of probes), the groups at once,
 * on the bank's worker threads when there are enough of them (decision 422).
 */
async function candidatePositions(
  bank: VisibleBank,
  incoming: readonly DuplicateQuestion[],
  searched: readonly boolean[],
  crossPart: boolean,
): Promise<number[][]> {
  const out = incoming.map((): number[] => []);
  const byGroup = new Map<string, number[]>();
  incoming.forEach((q, i) => {
    if (!searched[i]) return;
    const group = textGroup(label(q.part), crossPart, null);
    let members = byGroup.get(group);
    if (!members) byGroup.set(group, (members = []));
    members.push(i);
  });
  await Promise.all(
    [...byGroup].map(async ([group, members]) => {
      const found = await bank.search.searchMany(
        members.map((i) => incoming[i]!.text),
        group,
        MIN_FLAGGED_TEXT_SIMILARITY,
      );
      members.forEach((i, k) => (out[i] = found[k]!));
    }),
  );
  incoming.forEach((q, i) => {
    if (!searched[i]) return;
    const year = /^\d+$/.test(label(q.year)) ? wholeNumber(label(q.year)) : null;
    const number = wholeNumber(q.number);
    if (year === null || number === null) return;
    const same = bank.byNumber.get(numberKey(label(q.part), year, number));
    if (same) out[i] = [...new Set([...out[i]!, ...same])];
  });
  return out;
}

/**
 * imports.checkDuplicates: each incoming question against every question the user may see (own and
 * public, never another user's private one), with the results of the core reference
 * (`DuplicateScorer`) on the candidates the visible bank's indexes find. Read-only.
 */
export async function checkDuplicates(
  db: Db,
  userId: string,
  input: { questions: CheckQuestion[]; crossPart?: boolean },
): Promise<CheckDuplicatesResult> {
  const crossPart = input.crossPart ?? false;
  const incoming = input.questions.map(toDuplicateQuestion);
  const bank = await visibleBank(db, userId, crossPart);

  const isFlashcard = input.questions.map((q) => q.questionType === FLASHCARD);
  // Questions without text are never duplicates (docs/product/validation.md): nothing to look up.
  // Flashcards are scored apart, by front text against flashcards (decision 240).
  const searched = incoming.map((q, i) => similarityKey(q.text) !== "" && !isFlashcard[i]);
  const positionsOf = await candidatePositions(bank, incoming, searched, crossPart);
  const checks = bank.scorer.score(incoming, positionsOf, { crossPart });
  incoming.forEach((q, i) => {
    if (!isFlashcard[i] || similarityKey(q.text) === "") return;
    const group = textGroup(label(q.part), crossPart, FLASHCARD);
    const found = bank.text.search(q.text, group, FLASHCARD_DUPLICATE_SIMILARITY);
    checks[i] = scoreFlashcardCandidates(
      q,
      found.map((p) => bank.questions[p]!),
      { crossPart },
    ) as (typeof checks)[number];
  });

  const seen = new Map<string, number>();
  const scored = incoming.map((q, index) => {
    const key = repeatKey(q, crossPart);
    let repeatOf: number | null = null;
    if (key !== null) {
      repeatOf = seen.get(key) ?? null;
      if (repeatOf === null) seen.set(key, index);
    }
    return { index, repeatOf, check: checks[index]! };
  });

  const matchedIds = [...new Set(scored.flatMap((s) => s.check.matches.map((m) => m.question.id)))];
  const json = await questionJsonById(db, userId, matchedIds);
  const results: DuplicateResultJson[] = scored.map(({ index, repeatOf, check }) => ({
    index,
    isDuplicate: check.isDuplicate,
    repeatOf,
    matches: check.matches.flatMap((m) => {
      const question = json.get(m.question.id);
      if (!question) return [];
      return [
        {
          question,
          similarity: {
            ...m.similarity,
            mergeStrategy: m.similarity.mergeStrategy === "metadata" ? "metadata" : "newer",
          },
          canMerge: m.question.creatorId === userId,
        },
      ];
    }),
  }));
  return { results };
}
