/**
 * Names the user behind the writes to questions in this transaction, for the version the trigger on
 * questions records (drizzle's question_versions_trigger migration, decision 385). Transaction-local
 * (`set_config(…, true)`): call it inside the transaction that updates the question, before the update;
 * outside one it would last a single statement. A path that names nobody records no editor ("system").
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";

export async function markEditor(
  tx: Db,
  userId: string | null,
  opts: { at?: Date; restoredFrom?: number } = {},
): Promise<void> {
  await tx.execute(sql`select
    set_config('prite.editor', ${userId ?? ""}, true),
    set_config('prite.edited_at', ${opts.at?.toISOString() ?? ""}, true),
    set_config('prite.restored_from', ${opts.restoredFrom === undefined ? "" : String(opts.restoredFrom)}, true)`);
}
