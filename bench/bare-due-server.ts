/**
 * The same-run ceiling for the due page (issue 8 item 2): fastify and postgres.js with nothing else — no
 * session, no tRPC, no validation, no segments or counts — answering the studied part of a user's due
 * list (20 questions, or `?limit=`, most overdue first, off study_states_due_order_idx) as JSON rows. bench/api-load.ts
 * starts it next to the real server so the product's figure can be read against what the machine gives
 * the bare query in the same minute.
 *
 *   DATABASE_URL=… PORT=… BARE_USER_ID=… node --import tsx bench/bare-due-server.ts
 */
import Fastify from "fastify";
import postgres from "postgres";

const sql = postgres(process.env.DATABASE_URL!, { max: 10, prepare: true, onnotice: () => {} });
const userId = process.env.BARE_USER_ID!;
const app = Fastify({ logger: false });

// `?limit=200`: the bare variant of the due page's largest common page (issue 20).
app.get(
  "/due",
  async (req) =>
    sql`
    select q.id, q.creator_id, q.text, q.options, q.correct_answer, q.correct_answers,
           q.num_correct_answers, q.question_type, q.instructions, q.explanation,
           q.generated_explanation, q.category, q.part, q.year, q.number, q.is_public,
           q.created_at, q.updated_at, s.ease_factor, s.interval_days, s.repetitions, s.lapses,
           s.due_at, s.last_reviewed_at
      from study_states s
      join questions q on q.id = s.question_id
     where s.user_id = ${userId} and s.available and (s.due_at is null or s.due_at <= now())
     order by s.due_at asc nulls first, s.question_id
     limit ${Math.min(500, Number((req.query as { limit?: string }).limit) || 20)}`,
);

await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
process.on("SIGTERM", () => {
  void app.close().then(() => sql.end({ timeout: 1 }).then(() => process.exit(0)));
});
