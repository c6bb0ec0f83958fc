import { sql } from "drizzle-orm";
import { PGY_LEVEL_VALUES } from "../../../core/constants";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/raw";

export interface SyntheticProgramOptions {
  /** The synthetic users' prefix (seedSynthetic's). */
  prefix: string;
  programs: number;
  residentsPerProgram: number;
  /** Share of a program member's private questions shared with the program (0..1). */
  programQuestionShare?: number;
  now: Date;
}

/**
 * Residency programs over synthetic users (issue 32 item 7, e.g. 270 programs of 25 residents): the
 * users numbered 1…programs × residentsPerProgram go into programs in turn, the first of each as its
 * director, the others as residents with PGY levels 1-4 in turn; some of the members' private questions
 * become program questions. Users beyond that stay outside any program. Set-based SQL: seconds.
 */
export async function seedSyntheticPrograms(db: Db, opts: SyntheticProgramOptions) {
  const size = Math.max(1, opts.residentsPerProgram);
  const share = opts.programQuestionShare ?? 0.3;
  const levels = PGY_LEVEL_VALUES.filter((p) => /^[1-4]$/.test(p));
  const pgy = sql.raw(`array[${levels.map((p) => `'${p}'`).join(",")}]::text[]`);
  const now = opts.now.toISOString();
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into programs (name, institution, code, created_at)
      select ${opts.prefix} || ' Program ' || g, 'Synthetic Medical Center ' || g,
             upper(substr(md5(${opts.prefix} || '-program-' || g), 1, 8)), ${now}::timestamptz
      from generate_series(1, ${opts.programs}) g`);
    await tx.execute(sql`
      with numbered as (
        select row_number() over (order by username)::int - 1 as k, id from users
        where username like ${opts.prefix + "\\_%"}),
      programs_numbered as (
        select row_number() over (order by name)::int - 1 as p, id from programs
        where name like ${opts.prefix + " Program %"})
      update users u set
        program_id = pn.id,
        program_role = case when n.k % ${size} = 0 then 'director' else 'resident' end,
        program_joined_at = ${now}::timestamptz - ((n.k % 300) || ' days')::interval,
        pgy_level = (${pgy})[1 + (n.k % ${levels.length})]
      from numbered n join programs_numbered pn on pn.p = n.k / ${size}
      where u.id = n.id and n.k < ${opts.programs * size}`);
    await tx.execute(sql`
      update questions q set program_id = u.program_id
      from users u
      where u.id = q.creator_id and u.program_id is not null and not q.is_public
        and u.username like ${opts.prefix + "\\_%"}
        and (abs(hashtext(q.id::text)) % 1000) < ${Math.round(share * 1000)}`);
    const [counts] = await queryRows<{ programs: number; members: number; questions: number }>(
      tx,
      sql`select (select count(*) from programs where name like ${opts.prefix + " Program %"})::int programs,
                 (select count(*) from users where program_id is not null and username like ${opts.prefix + "\\_%"})::int members,
                 (select count(*) from questions q join users u on u.id = q.creator_id
                   where q.program_id is not null and u.username like ${opts.prefix + "\\_%"})::int questions`,
    );
    return counts!;
  });
}
