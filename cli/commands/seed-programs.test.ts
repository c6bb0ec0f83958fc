import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/server/db/raw";
import { seedSynthetic } from "../../src/server/features/seed/synthetic";
import { seedSyntheticPrograms } from "../../src/server/features/seed/synthetic-programs";
import { createHarness, type Harness } from "../../src/server/test/harness";
import { checkSeedFlags } from "./seed";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const flags = { users: "100", questions: "10", reviews: "0", public: "0.2" };

describe("prite seed --synthetic --programs", () => {
  it("checks the program flags before the database is opened", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    expect(
      checkSeedFlags({ ...flags, synthetic: true, programs: "4", residentsPerProgram: "25" }, now),
    ).toMatchObject({ programs: { programs: 4, residentsPerProgram: 25 } });
    expect(checkSeedFlags({ ...flags, synthetic: true }, now)).toMatchObject({ programs: null });
    expect(() =>
      checkSeedFlags({ ...flags, synthetic: true, programs: "5", residentsPerProgram: "25" }, now),
    ).toThrow("--programs 5 of 25 need 125 users: raise --users.");
    expect(() =>
      checkSeedFlags({ ...flags, synthetic: true, residentsPerProgram: "25" }, now),
    ).toThrow("--residents-per-program applies with --programs only.");
  });

  it("puts the users into programs: one director each, residents with PGY levels, program questions", async () => {
    const now = new Date();
    const seeded = await seedSynthetic(h.db.db, {
      users: 25,
      questions: 200,
      reviews: 300,
      publicShare: 0.2,
      now,
      prefix: "progseed",
    });
    const counts = await seedSyntheticPrograms(h.db.db, {
      prefix: seeded.prefix,
      programs: 2,
      residentsPerProgram: 10,
      now,
    });
    expect(counts.programs).toBe(2);
    expect(counts.members).toBe(20);
    expect(counts.questions).toBeGreaterThan(0);
    const rows = await queryRows<{ role: string; n: number; programs: number; pgys: number }>(
      h.db.db,
      sql`select program_role role, count(*)::int n, count(distinct program_id)::int programs,
                 count(distinct pgy_level)::int pgys
          from users where username like 'progseed\\_%' and program_id is not null group by program_role order by 1`,
    );
    expect(rows).toEqual([
      { role: "director", n: 2, programs: 2, pgys: expect.any(Number) },
      { role: "resident", n: 18, programs: 2, pgys: 4 },
    ]);
    const [publicInProgram] = await queryRows<{ n: number }>(
      h.db.db,
      sql`select count(*)::int n from questions where program_id is not null and is_public`,
    );
    expect(publicInProgram!.n).toBe(0);
  });
});
