/**
 * Property: on generated banks with near-duplicates, the server's indexed `checkDuplicates` flags the
 * same incoming questions, each with the same best match, as the all-pairs reference of
 * src/core/similarity run on everything the importer may see (own and public, never another user's
 * private question).
 */
import fc from "fast-check";
import { eq, or, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TBulkQuestionItem } from "../../../core/schemas";
import { findDuplicatesReference } from "../../../core/similarity";
import { questions, type NewQuestionRow } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { checkDuplicates } from "./imports.service";
import {
  bankRow,
  createRng,
  EDIT_KINDS,
  generateQuestion,
  nearDuplicate,
  perturb,
  pick,
  randomInt,
  vocabularyModel,
  VIGNETTE_WORDS,
  type GenerateOptions,
} from "./synthetic-bank";

let h: Harness;
let me: TestUser;
let others: TestUser[];
beforeAll(async () => {
  h = await createHarness();
  me = await h.user();
  others = [await h.user(), await h.user()];
});
afterAll(async () => {
  await h.close();
});

const EXISTING = 120;
const INCOMING = 40;

function bank(seed: number) {
  const rng = createRng(seed);
  const opts: GenerateOptions = {
    model: vocabularyModel(VIGNETTE_WORDS),
    textWords: [6, 40],
    optionWords: [1, 5],
    years: [2020, 2021, 2022],
    // Few numbers and years: many candidates share part, year and number without being alike.
    numbers: [1, 12],
  };
  const existing = Array.from({ length: EXISTING }, () => generateQuestion(rng, opts));
  const incoming: TBulkQuestionItem[] = Array.from({ length: INCOMING }, (_, i) => {
    const roll = rng();
    if (roll < 0.45) {
      // A near-duplicate, from close to far (more edits reach the 0.8 boundary).
      return nearDuplicate(pick(rng, existing), rng, opts, i % 2 === 0 ? 4 : 16);
    }
    if (roll < 0.55) {
      // Only the text re-worded heavily; options kept: scores around the threshold.
      const base = pick(rng, existing);
      return {
        ...base,
        text: perturb(base.text, rng, randomInt(rng, 4, 14), opts.model, EDIT_KINDS),
      };
    }
    return generateQuestion(rng, opts);
  });
  // Owners: 0 = the importer, 1 = another user's public question, 2 = another user's private one.
  const owners = existing.map(() => randomInt(rng, 0, 2));
  return { existing, incoming, owners };
}

async function store(existing: TBulkQuestionItem[], owners: number[]): Promise<void> {
  await h.db.db.execute(sql`delete from questions`);
  const base = Date.now() - 1_000_000;
  const rows: NewQuestionRow[] = existing.map((q, i) =>
    bankRow(
      q,
      owners[i] === 0 ? me.user.id : others[owners[i]! - 1]!.user.id,
      owners[i] === 1,
      new Date(base + i * 1000),
    ),
  );
  await h.db.db.insert(questions).values(rows);
}

describe("checkDuplicates against the all-pairs reference", () => {
  it("flags the same questions with the same best match on generated banks", async () => {
    let flaggedTotal = 0;
    let privateCopies = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (seed) => {
        const { existing, incoming, owners } = bank(seed);
        await store(existing, owners);
        const visible = await h.db.db
          .select({
            id: questions.id,
            text: questions.text,
            options: questions.options,
            part: questions.part,
            year: questions.year,
            number: questions.number,
            createdAt: questions.createdAt,
            creatorId: questions.creatorId,
            isPublic: questions.isPublic,
          })
          .from(questions)
          .where(or(eq(questions.creatorId, me.user.id), eq(questions.isPublic, true)));
        const reference = findDuplicatesReference(incoming, visible);
        const { results } = await checkDuplicates(h.db.db, me.user.id, { questions: incoming });

        expect(results).toHaveLength(incoming.length);
        results.forEach((got, i) => {
          const ref = reference[i]!;
          expect({ i, flagged: got.isDuplicate }).toEqual({ i, flagged: ref.isDuplicate });
          if (ref.isDuplicate) {
            expect({ i, best: got.matches[0]?.question._id }).toEqual({
              i,
              best: ref.matches[0]?.question.id,
            });
            expect(got.matches[0]!.similarity.score).toBe(ref.matches[0]!.similarity.score);
            expect(got.matches[0]!.canMerge).toBe(
              ref.matches[0]!.question.creatorId === me.user.id,
            );
          }
          // Never another user's private question.
          for (const m of got.matches) {
            expect(m.question.creator === me.user.id || m.question.isPublic).toBe(true);
          }
        });
        flaggedTotal += results.filter((r) => r.isDuplicate).length;
        privateCopies += owners.filter((o) => o === 2).length;
      }),
      { numRuns: 10 },
    );
    // The banks exercised what they should: many flags, and private questions to stay hidden.
    expect(flaggedTotal).toBeGreaterThan(10 * 5);
    expect(privateCopies).toBeGreaterThan(0);
  });
});
