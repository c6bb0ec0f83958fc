/**
 * Decision 414: the synthetic seed loads reviews and study states with their triggers set aside and
 * their secondary indexes rebuilt, then fills in what the triggers keep. What it leaves must be what
 * the triggers would have: every kept figure equal to a from-scratch computation over the seeded log,
 * each state's availability equal to the visibility rule, the users' versions moved, and the tables'
 * indexes and triggers as the migrations made them. On whichever database the suite runs on (PGlite,
 * or PostgreSQL with TEST_DATABASE_URL).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/raw";
import { createHarness, type Harness } from "../../test/harness";
import { expectRollupsMatchLog } from "../../test/kept-figures";
import { itemSumsFromLog, keptItemSums } from "../questions/item-stats.service";
import { seedSynthetic } from "./synthetic";
import { seedSyntheticPrograms } from "./synthetic-programs";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const schemaOf = (table: string) =>
  queryRows<{ def: string }>(
    h.db.db,
    sql`select pg_get_indexdef(indexrelid) as def from pg_index
         where indrelid = ${`public.${table}`}::regclass order by 1`,
  );
const keysOf = (table: string) =>
  queryRows<{ name: string; def: string; validated: boolean }>(
    h.db.db,
    sql`select conname as name, pg_get_constraintdef(oid) as def, convalidated as validated
          from pg_constraint where conrelid = ${`public.${table}`}::regclass order by 1`,
  );
const triggersOf = (table: string) =>
  queryRows<{ name: string; enabled: string }>(
    h.db.db,
    sql`select tgname as name, tgenabled as enabled from pg_trigger
         where tgrelid = ${`public.${table}`}::regclass and not tgisinternal order by 1`,
  );

describe("seedSynthetic's bulk load (decision 414)", () => {
  it("leaves the kept figures, availability and versions the triggers would, and the tables as they were", async () => {
    const tables = ["reviews", "study_states", "answer_quarters", "question_option_picks"];
    const shape = async () =>
      Promise.all(
        tables.map(async (t) => ({
          t,
          indexes: await schemaOf(t),
          keys: await keysOf(t),
          triggers: await triggersOf(t),
        })),
      );
    const before = await shape();
    const now = new Date();
    // Two seeds: the second's load and backfill must leave the first's figures as they were.
    for (const prefix of ["bulka", "bulkb"]) {
      const seeded = await seedSynthetic(h.db.db, {
        users: 12,
        questions: 300,
        reviews: 3000,
        publicShare: 0.3,
        days: 10,
        now,
        prefix,
      });
      expect(seeded.reviews).toBe(3000);
    }
    await seedSyntheticPrograms(h.db.db, {
      prefix: "bulka",
      programs: 2,
      residentsPerProgram: 5,
      now,
    });

    expect(await shape()).toEqual(before);
    const reviewShape = before[0]!;
    expect(reviewShape.keys.filter((k) => k.def.startsWith("FOREIGN KEY"))).toHaveLength(4);
    expect(reviewShape.indexes.length).toBeGreaterThan(4);
    expect(reviewShape.triggers.every((t) => t.enabled === "O")).toBe(true);

    await expectRollupsMatchLog(h.db.db);

    const ids = (
      await queryRows<{ id: string }>(h.db.db, sql`select distinct question_id as id from reviews`)
    ).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(100);
    const kept = await keptItemSums(h.db.db, ids);
    const fromLog = await itemSumsFromLog(h.db.db, ids);
    for (const id of ids) {
      const k = kept.get(id);
      const l = fromLog.get(id);
      expect({ answered: k?.answered, correct: k?.correct, time: k?.timeMsSum }, id).toEqual({
        answered: l?.answered,
        correct: l?.correct,
        time: l?.timeMsSum,
      });
      expect(k?.picks ?? {}, id).toEqual(l?.picks ?? {});
    }

    // Every state is of a reviewed pair, and available exactly when the visibility rule says so
    // (programs included: the programs' seed ran with the triggers on).
    const [states] = await queryRows<{ n: number; wrong: number; unreviewed: number }>(
      h.db.db,
      sql`select count(*)::int n,
                 count(*) filter (where s.available is distinct from coalesce(question_available_to(
                   q.creator_id, q.is_public, q.program_id, q.reserved, q.question_type,
                   q.correct_answers, q.correct_answer, s.user_id), false))::int wrong,
                 count(*) filter (where not exists (select 1 from reviews r
                   where r.user_id = s.user_id and r.question_id = s.question_id))::int unreviewed
          from study_states s join questions q on q.id = s.question_id`,
    );
    expect(states!.n).toBeGreaterThan(100);
    expect(states!.wrong).toBe(0);
    expect(states!.unreviewed).toBe(0);
    const [programStates] = await queryRows<{ n: number }>(
      h.db.db,
      sql`select count(*)::int n from study_states s join questions q on q.id = s.question_id
          where q.program_id is not null and s.available`,
    );
    expect(programStates!.n).toBeGreaterThan(0);

    // Each seeded user's version moved (one step per insert, as the triggers take), and no
    // seeded state was a leech to mark.
    const [versions] = await queryRows<{ users: number; moved: number; leeches: number }>(
      h.db.db,
      sql`select count(*)::int users,
                 count(*) filter (where (select coalesce(sum(c.weight), 0) from summary_changes c
                   where c.user_id = u.id) >= 2)::int moved,
                 (select count(*)::int from leech_marks) leeches
          from users u where u.username like 'bulk%'`,
    );
    expect(versions).toEqual({ users: 24, moved: 24, leeches: 0 });
  });

  it("rolls everything back when the load fails: tables, indexes and triggers as before", async () => {
    const before = {
      indexes: await schemaOf("reviews"),
      keys: await keysOf("reviews"),
      triggers: await triggersOf("reviews"),
    };
    const [count] = await queryRows<{ n: number }>(
      h.db.db,
      sql`select count(*)::int n from reviews`,
    );
    // A spread of 0 days: each review's time divides by zero inside the load, after the indexes are
    // dropped and the triggers set aside.
    await expect(
      seedSynthetic(h.db.db, {
        users: 2,
        questions: 10,
        reviews: 10,
        days: 0,
        now: new Date(),
        prefix: "bulkfail",
      }),
    ).rejects.toThrow(/insert into reviews/);
    expect(await schemaOf("reviews")).toEqual(before.indexes);
    expect(await keysOf("reviews")).toEqual(before.keys);
    expect(await triggersOf("reviews")).toEqual(before.triggers);
    const [after] = await queryRows<{ n: number }>(
      h.db.db,
      sql`select count(*)::int n from reviews`,
    );
    expect(after!.n).toBe(count!.n);
  });
});
