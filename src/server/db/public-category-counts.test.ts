/**
 * public_category_counts is kept by triggers (drizzle/0014): after any mix of writes — bulk inserts,
 * edits of category and visibility, deletes, an account deletion cascading to its questions — it must
 * equal a direct count of the public questions.
 */
import fc from "fast-check";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test/harness";
import { queryRows } from "./raw";
import { publicCategoryCounts, questions, users } from "./schema";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const CATEGORIES = ["Ethics", "Genetics", "", "Neuroscience"];

async function expectCountsExact(): Promise<void> {
  const direct = await queryRows<{ category: string; n: number }>(
    h.db.db,
    sql`select category, count(*)::int as n from questions where is_public group by category order by category`,
  );
  const kept = await h.db.db
    .select()
    .from(publicCategoryCounts)
    .orderBy(publicCategoryCounts.category);
  expect(kept.map((r) => ({ category: r.category, n: r.questions }))).toEqual(
    direct.map((r) => ({ category: r.category, n: Number(r.n) })),
  );
}

type Op =
  | { kind: "insert"; rows: { category: number; isPublic: boolean }[] }
  | { kind: "recategorize"; pick: number; category: number }
  | { kind: "toggle"; pick: number }
  | { kind: "delete"; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("insert" as const),
    rows: fc.array(fc.record({ category: fc.nat(3), isPublic: fc.boolean() }), {
      minLength: 1,
      maxLength: 6,
    }),
  }),
  fc.record({ kind: fc.constant("recategorize" as const), pick: fc.nat(), category: fc.nat(3) }),
  fc.record({ kind: fc.constant("toggle" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
);

describe("public_category_counts", () => {
  it("equals a direct count after any sequence of writes", async () => {
    const author = await h.user();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        for (const o of ops) {
          const ids = (
            await h.db.db.select({ id: questions.id }).from(questions).orderBy(questions.id)
          ).map((r) => r.id);
          const picked = ids.length > 0 ? [ids[("pick" in o ? o.pick : 0) % ids.length]!] : [];
          if (o.kind === "insert") {
            await h.db.db.insert(questions).values(
              o.rows.map((r, i) => ({
                creatorId: author.user.id,
                text: `Counted question ${i}`,
                options: { A: "a", B: "b" },
                part: "1",
                year: 2024,
                category: CATEGORIES[r.category]!,
                isPublic: r.isPublic,
              })),
            );
          } else if (picked.length === 0) {
            continue;
          } else if (o.kind === "recategorize") {
            await h.db.db
              .update(questions)
              .set({ category: CATEGORIES[o.category]! })
              .where(inArray(questions.id, picked));
          } else if (o.kind === "toggle") {
            await h.db.db
              .update(questions)
              .set({ isPublic: sql`not ${questions.isPublic}` })
              .where(inArray(questions.id, picked));
          } else {
            await h.db.db.delete(questions).where(inArray(questions.id, picked));
          }
        }
        await expectCountsExact();
      }),
      { numRuns: 25 },
    );
  });

  it("follows an account deletion and the product's own writes", async () => {
    const leaving = await h.user();
    await leaving.caller.questions.create({
      text: "A public question that leaves with its author",
      options: { A: "Lithium", B: "Valproate" },
      correctAnswer: "A",
      category: "Ethics",
      part: "1",
      year: 2024,
      isPublic: true,
    } as never);
    await expectCountsExact();
    await h.db.db.delete(users).where(eq(users.id, leaving.user.id));
    await expectCountsExact();
  });
});
