import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { questions } from "../../db/schema";
import { createHarness, type Harness } from "../../test/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe(`imports.commit's one-parameter insert (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("stores a text with a lone surrogate as the other write paths do (U+FFFD), not a database error", async () => {
    const me = await h.user();
    // A JSON body may carry "\ud800" escapes; jsonb refuses them, a text parameter does not.
    const text = "Which drug \ud800is first-line for panic disorder, lone \udc00surrogates aside?";
    const result = await me.caller.imports.commit({
      items: [
        {
          action: "create" as const,
          question: {
            text,
            options: { A: "Sertraline\ud83d", B: "Haloperidol", C: "Lithium", D: "Clozapine" },
            correctAnswer: "A",
            category: "Psychopharmacology",
            part: "1" as const,
            year: 2024,
            number: null,
            explanation: "",
          },
        },
      ],
    });
    expect(result).toMatchObject({ imported: 1 });
    const [row] = await h.db.db.select().from(questions).where(eq(questions.creatorId, me.user.id));
    expect(row!.text).toBe(
      "Which drug \ufffdis first-line for panic disorder, lone \ufffdsurrogates aside?",
    );
    expect((row!.options as Record<string, string>).A).toBe("Sertraline\ufffd");
  });
});
