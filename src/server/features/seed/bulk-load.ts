import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/raw";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Millions of rows in one statement, inside the seed's transaction (decision 414): the tables' own
 * triggers are set aside (`disable trigger user`, as a restore does: decision 330), their foreign
 * keys and secondary indexes dropped, and afterwards each is made again from its own definition:
 * an index built in one pass from sorted rows, a foreign key checked by one join over the table.
 * Row by row, the two foreign-key lookups of each review and its index entries were most of the
 * insert (measured in docs/decisions/414). Whoever calls this fills in what the set-aside triggers
 * would have written. All of it is transactional: an error rolls the tables back as they were;
 * other sessions wait on the tables until the seed commits.
 */
export async function bulkLoad<T>(tx: Tx, tables: string[], load: () => Promise<T>): Promise<T> {
  const indexes: { def: string }[] = [];
  const keys: { table: string; name: string; def: string }[] = [];
  for (const table of tables) {
    const fks = await queryRows<{ name: string; def: string }>(
      tx,
      sql`select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
           where conrelid = ${`public.${table}`}::regclass and contype = 'f' order by 1`,
    );
    for (const k of fks) {
      await tx.execute(sql.raw(`alter table public.${table} drop constraint "${k.name}"`));
      keys.push({ table, ...k });
    }
    // Indexes that back a constraint (primary keys, unique constraints) stay: foreign keys need them.
    const rows = await queryRows<{ name: string; def: string }>(
      tx,
      sql`select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
            from pg_index i
           where i.indrelid = ${`public.${table}`}::regclass
             and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
           order by 1`,
    );
    for (const r of rows) await tx.execute(sql.raw(`drop index ${r.name}`));
    indexes.push(...rows);
    await tx.execute(sql.raw(`alter table public.${table} disable trigger user`));
  }
  const result = await load();
  for (const table of tables) {
    await tx.execute(sql.raw(`alter table public.${table} enable trigger user`));
  }
  for (const index of indexes) await tx.execute(sql.raw(index.def));
  for (const k of keys) {
    await tx.execute(sql.raw(`alter table public.${k.table} add constraint "${k.name}" ${k.def}`));
  }
  return result;
}

/**
 * What the set-aside triggers of reviews and study_states write for the seeded users' rows (the
 * `synthetic_users` table of ids), through the functions the triggers and the migrations' backfills
 * call (drizzle/0022, 0023-0024, 0037): the answer rollups, the item statistics and one version step
 * per user for each of the two inserts. study_states.available is written by the insert itself
 * (question_available_to, the trigger's function); no seeded state is a leech.
 */
export async function backfillSeededAnswers(tx: Tx): Promise<void> {
  await tx.execute(sql`
    select answer_rollup_apply(array_agg(r.user_id), array_agg(r.category), array_agg(r.reviewed_at),
      array_agg(1), array_agg(r.is_correct::int), array_agg(0))
    from reviews r join synthetic_users u on u.id = r.user_id
    where r.exam_id is null`);
  await tx.execute(sql`
    select item_answers_apply(1, array_agg(r.question_id), array_agg(r.is_correct),
      array_agg(r.time_spent_ms), array_agg(to_jsonb(r.selected)))
    from reviews r join synthetic_users u on u.id = r.user_id
    where r.exam_id is null`);
  // One step for the reviews' statement and one for the states', as their triggers take.
  for (const table of ["reviews", "study_states"]) {
    await tx.execute(sql`
      select summary_version_bump(array_agg(distinct x.user_id order by x.user_id))
      from ${sql.raw(table)} x join synthetic_users u on u.id = x.user_id`);
  }
}
