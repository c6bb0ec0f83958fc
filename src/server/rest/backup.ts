import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { FastifyInstance } from "fastify";
import type { DbHandle } from "../db/client";
import { auditMeta } from "../features/audit/audit.service";
import { writeBackupFile } from "../features/backup/backup.service";
import { backupFileName } from "../features/backup/schedule";
import type { HttpContextFactory } from "../http-context";
import { errorMessage, requireAdmin } from "../trpc/init";

/**
 * `GET /api/admin/backup` (admins): the backup file of `prite db backup`, which is how a running
 * server's embedded database is backed up. The snapshot is written to a temporary file first and then
 * sent, so a slow download holds neither the embedded database's one connection nor a PostgreSQL
 * snapshot (decision 330). Not a procedure: its answer is a stream of bytes, not JSON.
 */
export function registerBackupRoute(
  app: FastifyInstance,
  makeContext: HttpContextFactory,
  handle: Pick<DbHandle, "db" | "kind">,
): void {
  app.get("/api/admin/backup", async (req, reply) => {
    try {
      const ctx = await makeContext(req, reply, { returnToken: true });
      requireAdmin(ctx);
      const now = ctx.now();
      const file = path.join(os.tmpdir(), `prite-backup-${crypto.randomUUID()}.jsonl.gz`);
      await writeBackupFile(handle.db, file, {
        kind: handle.kind,
        now,
        audit: { actor: ctx.user, origin: auditMeta(ctx).origin },
      });
      const stream = fs.createReadStream(file);
      stream.on("close", () => fs.rm(file, { force: true }, () => {}));
      return reply
        .header("Content-Type", "application/gzip")
        .header("Content-Disposition", `attachment; filename="${backupFileName(now)}"`)
        .send(stream);
    } catch (err) {
      const status = err instanceof TRPCError ? getHTTPStatusCodeFromError(err) : 500;
      if (status >= 500) req.log.error({ err }, "backup failed");
      return reply.status(status).send({ message: errorMessage(err) });
    }
  });
}
