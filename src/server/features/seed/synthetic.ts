import { sql } from "drizzle-orm";
import { CATEGORIES, PGY_LEVEL_VALUES } from "../../../core/constants";
import { hashPassword } from "../../auth/password";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/raw";
import { backfillSeededAnswers, bulkLoad } from "./bulk-load";
import { CLINICAL_WORDS as WORDS } from "./vocabulary";

export interface SyntheticOptions {
  users: number;
  questions: number;
  reviews: number;
  /** Share of questions that are public (0..1). */
  publicShare?: number;
  /** Reviews are spread over this many days before `now`. */
  days?: number;
  now: Date;
  /** Prefix for generated usernames, so repeated runs do not collide. */
  prefix?: string;
}

export const SYNTHETIC_PASSWORD = "synthetic-password";

/**
 * Fills the database with synthetic users, questions (own and public), reviews spread over recent days
 * and matching study states — for benchmarks. Generated in SQL with generate_series so 500,000 reviews
 * take seconds, not minutes; reviews and states are loaded in bulk with their triggers set aside and
 * what those triggers keep filled in after, so the specialty's 5,000,000 take minutes (decision 414).
 */
export async function seedSynthetic(db: Db, opts: SyntheticOptions) {
  const prefix = opts.prefix ?? `synth${opts.now.getTime().toString(36)}`;
  const publicShare = opts.publicShare ?? 0.2;
  const days = opts.days ?? 90;
  const passwordHash = await hashPassword(SYNTHETIC_PASSWORD);
  const words = sql.raw(`array[${WORDS.map((w) => `'${w}'`).join(",")}]::text[]`);
  const categories = sql.raw(
    `array[${CATEGORIES.map((c) => `'${c.replace(/'/g, "''")}'`).join(",")}]::text[]`,
  );
  const pgy = sql.raw(`array[${PGY_LEVEL_VALUES.map((p) => `'${p}'`).join(",")}]::text[]`);
  const now = opts.now.toISOString();

  return db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into users (username, email, password_hash, pgy_level, share_usage_data, public_profile, created_at, last_login)
      select ${prefix} || '_' || g, ${prefix} || '_' || g || '@synthetic.test', ${passwordHash},
             (${pgy})[1 + (g % 9)], (g % 5) <> 0, (g % 3) = 0,
             ${now}::timestamptz - ((g % 400) || ' days')::interval,
             ${now}::timestamptz - ((g % 45) || ' days')::interval
      from generate_series(1, ${opts.users}) g`);

    // Users and questions are numbered once and joined by number: indexing arrays of every id (as this
    // did) read the whole array again for each row, minutes for 500,000 questions (issue 20 item 6).
    await tx.execute(sql`
      create temporary table synthetic_users on commit drop as
      select row_number() over (order by username)::int as k, id from users
       where username like ${prefix + "\\_%"}`);
    await tx.execute(sql`create unique index on synthetic_users (k)`);

    await tx.execute(sql`
      with n as (select count(*)::int n from synthetic_users)
      insert into questions (creator_id, text, options, correct_answer, correct_answers, category, part, year, number, is_public, explanation, created_at, updated_at)
      select u.id,
             'Question ' || g || ': ' || (
               select string_agg((${words})[1 + abs(hashtext(g::text || '-' || w)) % ${WORDS.length}], ' ')
               from generate_series(1, 18 + (g % 30)) w) || '?',
             jsonb_build_object(
               'A', (${words})[1 + abs(hashtext(g || 'a')) % ${WORDS.length}] || ' ' || (${words})[1 + abs(hashtext(g || 'aa')) % ${WORDS.length}],
               'B', (${words})[1 + abs(hashtext(g || 'b')) % ${WORDS.length}] || ' ' || (${words})[1 + abs(hashtext(g || 'bb')) % ${WORDS.length}],
               'C', (${words})[1 + abs(hashtext(g || 'c')) % ${WORDS.length}] || ' ' || (${words})[1 + abs(hashtext(g || 'cc')) % ${WORDS.length}],
               'D', (${words})[1 + abs(hashtext(g || 'd')) % ${WORDS.length}] || ' ' || (${words})[1 + abs(hashtext(g || 'dd')) % ${WORDS.length}],
               'E', (${words})[1 + abs(hashtext(g || 'e')) % ${WORDS.length}] || ' ' || (${words})[1 + abs(hashtext(g || 'ee')) % ${WORDS.length}]),
             chr(65 + (g % 5)), array[chr(65 + (g % 5))],
             (${categories})[1 + (g % ${CATEGORIES.length})],
             (1 + (g % 2))::text, 2020 + (g % 5), 1 + (g % 300),
             (abs(hashtext(g || 'pub')) % 1000) < ${Math.round(publicShare * 1000)},
             case when g % 3 = 0 then 'Explanation for question ' || g else '' end,
             ${now}::timestamptz - ((g % 365) || ' days')::interval,
             ${now}::timestamptz - ((g % 365) || ' days')::interval
      from n cross join generate_series(1, ${opts.questions}) g
      join synthetic_users u on u.k = 1 + (g % n.n)`);

    await tx.execute(sql`
      create temporary table synthetic_questions on commit drop as
      select row_number() over (order by q.id)::int as k, q.id, q.creator_id, q.is_public, q.category
        from questions q join synthetic_users u on u.id = q.creator_id`);
    await tx.execute(sql`create unique index on synthetic_questions (k)`);
    await tx.execute(sql`analyze synthetic_users`);
    await tx.execute(sql`analyze synthetic_questions`);

    // Sorts for the rebuilt indexes and the rollups' grouping: in memory where the server allows.
    await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
    await tx.execute(sql`set local work_mem = '64MB'`);
    // The two kept tables of a row per answer or so are loaded the same way: their foreign-key
    // lookups were most of the backfill's time.
    const tables = ["reviews", "study_states", "answer_quarters", "question_option_picks"];
    await bulkLoad(tx, tables, async () => {
      // A review's user is the creator for private questions and any synthetic user for public ones,
      // so every review is of a question its user may see.
      await tx.execute(sql`
        with n as (select (select count(*) from synthetic_users)::int as users,
                          (select count(*) from synthetic_questions)::int as questions),
             picks as (
               select g, 1 + (abs(hashtext(g::text)) % n.questions) as k,
                      1 + (abs(hashtext(g || 'u')) % n.users) as uk
                 from n, generate_series(1, ${opts.reviews}) g)
        insert into reviews (user_id, question_id, category, difficulty, is_correct, selected, time_spent_ms, reviewed_at)
        select case when q.is_public then u.id else q.creator_id end,
               q.id, q.category, (g % 3)::smallint, (abs(hashtext(g || 'c')) % 100) < 72,
               array[chr(65 + (g % 5))], 4000 + (abs(hashtext(g || 't')) % 60000),
               ${now}::timestamptz - ((abs(hashtext(g || 'd')) % (${days} * 86400)) || ' seconds')::interval
        from picks
        join synthetic_questions q on q.k = picks.k
        join synthetic_users u on u.k = picks.uk`);

      // available is what the states' trigger would set: the same function, for each state's user.
      await tx.execute(sql`
        insert into study_states (user_id, question_id, ease_factor, interval_days, repetitions, lapses, due_at, last_reviewed_at, available)
        select s.user_id, s.question_id, s.ease_factor, s.interval_days, s.repetitions, s.lapses, s.due_at, s.last_reviewed_at,
               coalesce(question_available_to(q.creator_id, q.is_public, q.program_id, q.reserved,
                 q.question_type, q.correct_answers, q.correct_answer, s.user_id), false)
        from (
          select r.user_id, r.question_id,
                 greatest(1.3, least(3.0, 2.5 + (sum(case when r.is_correct then 0.1 else -0.2 end))::float8 / 4)) as ease_factor,
                 least(60, count(*)::int * 3) as interval_days, count(*) filter (where r.is_correct)::int as repetitions,
                 count(*) filter (where not r.is_correct)::int as lapses,
                 max(r.reviewed_at) + ((least(60, count(*)::int * 3)) || ' days')::interval - interval '20 days' as due_at,
                 max(r.reviewed_at) as last_reviewed_at
          from reviews r join synthetic_users u on u.id = r.user_id
          group by r.user_id, r.question_id) s
        join questions q on q.id = s.question_id`);
      await backfillSeededAnswers(tx);
    });

    const [counts] = await queryRows<{ users: number; questions: number; reviews: number }>(
      tx,
      sql`
      select (select count(*) from users where username like ${prefix + "\\_%"})::int as users,
             (select count(*) from questions q join users u on u.id = q.creator_id where u.username like ${prefix + "\\_%"})::int as questions,
             (select count(*) from reviews r join users u on u.id = r.user_id where u.username like ${prefix + "\\_%"})::int as reviews`,
    );
    return { prefix, password: SYNTHETIC_PASSWORD, ...counts! };
  });
}
