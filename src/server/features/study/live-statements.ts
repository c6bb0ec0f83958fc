/**
 * The study writer's live statements (study-writer-live.ts, decisions 398, 427, 429, 430) as raw SQL
 * text: each one statement, so one transaction, that writes only while what its read found still
 * holds, and returns the written state, its row version and the user's version before the write.
 */
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { userVersionSql } from "../../db/user-versions";
import { programBankOf, reportedNoticeSql } from "../questions/question-json";

/** The written state's columns and its new row version, of the CTE `s`, and the user's version before the write. */
const STATE_COLUMNS = `s.user_id, s.question_id, s.ease_factor, s.interval_days, s.repetitions, s.lapses,
  s.due_at, s.last_reviewed_at, s.stability, s.fsrs_difficulty,
  s.pending_review_id::float8 as pending_review_id, s.available, s.leech, s.introduced_at, s.row_version,
  v.before as version_before, (select count(*)::int from r) as reviews_written`;

/** Drizzle fragments as text for the raw statements below (they hold no parameters of their own). */
const dialect = new PgDialect({ casing: "snake_case" });
function fragment(query: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(query);
  if (params.length > 0) throw new Error("a fragment of a raw statement took a parameter");
  return text;
}

const THRESHOLD = `(select leech_threshold from users where id = $1)`;

/**
 * The first CTE of every live write (decision 429): the user's version as the statement found it, of
 * the snapshot the write is checked against. The state's CTE `s` reads it, so it is read before the
 * write. With the reviews the statement wrote (`r`), it tells the version the write leaves.
 */
const LIVE_HEAD = `
v as materialized (select ${fragment(userVersionSql(sql.raw("$1::uuid")))} as before)`;

/** The final select's sources: the written state and the version before. */
const LIVE_FROM = `s cross join v`;

/**
 * The rows a read checked are still as read (decisions 427, 430): the user's row (settings, program)
 * and the question's are the versions of parameters `$user` and `$question`, and the question is still
 * visible to the user (visibleTo, question-json.ts, written out).
 */
const rowsAsRead = (user: number, question: number) => `
    and exists (select 1 from users viewer where viewer.id = $1::uuid and viewer.xmin::text = $${user}::text)
    and exists (select 1 from questions where questions.id = $2::uuid and questions.xmin::text = $${question}::text
      and (questions.creator_id = $1::uuid or questions.is_public
        or ${fragment(programBankOf(sql.raw("$1::uuid")))}))`;

/**
 * The final select's sources with what may change without touching the rows checked: the question's
 * creator's name and profile setting, its images and its report notice, as they are now.
 */
const WITH_FRESH_PARTS = `,
  creator.username as creator_username, creator.public_profile as creator_public_profile,
  (select array_agg(m.sha256 order by m.position) from question_media m
    where m.question_id = questions.id) as images,
  ${fragment(reportedNoticeSql())} as reported
from ${LIVE_FROM} join questions on questions.id = s.question_id
  left join users creator on creator.id = questions.creator_id`;

const WITHOUT_FRESH_PARTS = ` from ${LIVE_FROM}`;

/** The review of an answer, inserted only with its state (`s`), under the id drawn in `n`. */
const answerReview = (more: string) => `
r as (
  insert into reviews (id, user_id, question_id, session_id, category, difficulty, is_correct, selected,
    time_spent_ms, reviewed_at)
  overriding system value
  select n.id, $1::uuid, $2::uuid, $12::uuid, $13::text, null, $14::boolean, $15::text[], $16::int,
    $11::timestamptz
  from n where exists (select 1 from s)
  returning 1
)
select ${STATE_COLUMNS}${more}`;

/**
 * An answer from the due page's read (decision 430): the rows it read still as read, and the study
 * session, if any, the user's (the read's ownSession).
 */
const pageReadGuard = (user: number, question: number) => `${rowsAsRead(user, question)}
    and ($12::uuid is null or exists (select 1 from study_sessions ss
      where ss.id = $12::uuid and ss.user_id = $1::uuid))`;

/**
 * An answer to a question already studied: the state after it (saveState's leech rule) and its review,
 * written only if the state is still the version read ($17) and `guard` holds. An UPDATE, not the
 * upsert: an INSERT … ON CONFLICT fires the row's BEFORE INSERT availability trigger and the insert's
 * statement trigger even when it ends as an update (issue 35 item 1: a fifth of the write's time).
 */
const answerUpdate = (guard: string, more: string) => `
with ${LIVE_HEAD},
n as materialized (select nextval(pg_get_serial_sequence('reviews', 'id')) as id),
s as (
  update study_states st set ease_factor = $3::float8, interval_days = $4::int, repetitions = $5::int,
    lapses = $6::int, due_at = $7::timestamptz, last_reviewed_at = $8::timestamptz,
    stability = $9::float8, fsrs_difficulty = $10::float8, pending_review_id = n.id,
    leech = st.leech or ($6::int > st.lapses and $6::int >= ${THRESHOLD})
  from n, v
  where st.user_id = $1::uuid and st.question_id = $2::uuid and st.xmin::text = $17::text${guard}
  returning st.*, st.xmin::text as row_version
),${answerReview(more)}`;

/**
 * A first answer: the state (introduced now) and its review, if `guard` holds. When another write
 * created the state after the read, nothing is written (DO NOTHING) and the transaction decides.
 */
const answerInsert = (guard: string, more: string) => `
with ${LIVE_HEAD},
n as materialized (select nextval(pg_get_serial_sequence('reviews', 'id')) as id),
s as (
  insert into study_states as st (user_id, question_id, ease_factor, interval_days, repetitions, lapses,
    due_at, last_reviewed_at, stability, fsrs_difficulty, pending_review_id, leech, introduced_at)
  select $1::uuid, $2::uuid, $3::float8, $4::int, $5::int, $6::int, $7::timestamptz, $8::timestamptz,
    $9::float8, $10::float8, n.id, $6::int >= ${THRESHOLD}, $11::timestamptz from n, v
  where true${guard}
  on conflict (user_id, question_id) do nothing
  returning st.*, st.xmin::text as row_version
),${answerReview(more)}`;

export const ANSWER_UPDATE = answerUpdate("", WITHOUT_FRESH_PARTS);
export const ANSWER_INSERT = answerInsert("", WITHOUT_FRESH_PARTS);
/** From the page's read: the user's row version and the question's are $18 and $19 ($17, $18 for a first answer). */
export const ANSWER_UPDATE_PAGE = answerUpdate(pageReadGuard(18, 19), WITH_FRESH_PARTS);
export const ANSWER_INSERT_PAGE = answerInsert(pageReadGuard(17, 18), WITH_FRESH_PARTS);

/**
 * A rating's state (pending answer cleared) and the pending review's difficulty, written only if the
 * state is still the version read and `guard` holds; the state's columns, then `more`.
 */
const rateWrite = (guard: string, more: string) => `
with ${LIVE_HEAD},
s as (
  update study_states st set ease_factor = $3::float8, interval_days = $4::int, repetitions = $5::int,
    lapses = $6::int, due_at = $7::timestamptz, last_reviewed_at = $8::timestamptz,
    stability = $9::float8, fsrs_difficulty = $10::float8, pending_review_id = null,
    leech = st.leech or ($6::int > st.lapses and $6::int >= ${THRESHOLD})
  from v
  where st.user_id = $1::uuid and st.question_id = $2::uuid and st.xmin::text = $11::text${guard}
  returning st.*, st.xmin::text as row_version
),
r as (
  update reviews set difficulty = $12::smallint
  where id = $13::bigint and user_id = $1::uuid and exists (select 1 from s)
  returning 1
)
select ${STATE_COLUMNS}${more}`;

export const RATE_WRITE = rateWrite("", WITHOUT_FRESH_PARTS);

/**
 * The rating of a kept answer (decision 427): also only while the user's row ($14) and the question's
 * ($15) are the versions the answer read and the question is still visible to the user; with the
 * question's creator, images and report notice as they are now.
 */
export const RATE_KEPT = rateWrite(rowsAsRead(14, 15), WITH_FRESH_PARTS);
