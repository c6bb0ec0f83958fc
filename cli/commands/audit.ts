import type { Command } from "commander";
import {
  AUDIT_KINDS,
  type AuditEntryJson,
  type AuditKind,
} from "../../src/server/features/audit/audit.service";
import { action } from "../command";
import { usage } from "../options";
import { table } from "../output";
import type { Api } from "../runtime";

export interface AuditFilters {
  since?: string;
  username?: string;
  kind?: string;
}

/** Every entry that matches, newest first, read a page at a time. */
export async function readAudit(api: Api, filters: AuditFilters): Promise<AuditEntryJson[]> {
  const entries: AuditEntryJson[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.admin.audit.query({
      username: filters.username,
      kind: filters.kind as AuditKind | undefined,
      since: filters.since ? new Date(filters.since) : undefined,
      cursor,
      limit: 200,
    });
    entries.push(...page.entries);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return entries;
}

export function formatAudit(entries: AuditEntryJson[]): string {
  if (entries.length === 0) return "No audit entries.";
  return table(
    entries.map((e) => ({
      when: e.createdAt.replace("T", " ").slice(0, 19),
      kind: e.kind,
      user: e.username || "(server)",
      target: e.targetUsername,
      from: e.ip,
      detail: Object.keys(e.detail).length > 0 ? JSON.stringify(e.detail) : "",
    })),
    ["when", "kind", "user", "target", "from", "detail"],
  );
}

export function registerAuditCommands(program: Command): void {
  program
    .command("audit")
    .description("Read the audit log, newest first (admins only)")
    .option("--since <date>", "only entries from this date or time on (e.g. 2026-11-01)")
    // Not --user: that global option chooses who a local command acts as.
    .option("--username <name>", "only entries by or about this account")
    .option("--kind <kind>", `only this kind: ${AUDIT_KINDS.join(", ")}`)
    .addHelpText(
      "after",
      "\nExamples:\n  $ prite audit --since 2026-11-01\n  $ prite audit --username alice --kind role.changed --json",
    )
    .action(
      action(
        async (ctx, opts: AuditFilters) => {
          const entries = await readAudit(ctx.session.api, opts);
          ctx.out(formatAudit(entries), entries);
        },
        {
          validate: ([opts]) => {
            if (opts.since !== undefined && Number.isNaN(new Date(opts.since).getTime()))
              throw usage(`--since must be a date, e.g. 2026-11-01 (got "${opts.since}").`);
            if (opts.kind !== undefined && !(AUDIT_KINDS as readonly string[]).includes(opts.kind))
              throw usage(`--kind must be one of: ${AUDIT_KINDS.join(", ")}.`);
          },
        },
      ),
    );
}
