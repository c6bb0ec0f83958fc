import type { FastifyInstance } from "fastify";
import type { DbHandle } from "./db/client";
import { migrationStatus, shippedMigrations, type ShippedMigration } from "./db/migrate";

/**
 * `GET /api/ready`: 200 when the database answers and has every migration this release ships, 503
 * with the reason otherwise. `/api/health` stays the liveness check: a server whose database is away
 * is alive (it reconnects) but should get no traffic.
 */
export function registerReadiness(
  app: FastifyInstance,
  handle: DbHandle,
  migrationsFolder?: string,
): void {
  let shipped: ShippedMigration[] | undefined;
  app.get("/api/ready", async (req, reply) => {
    shipped ??= shippedMigrations(migrationsFolder);
    let status;
    try {
      status = await migrationStatus(handle, shipped);
    } catch (err) {
      req.log.warn({ err }, "readiness: the database did not answer");
      return reply
        .status(503)
        .send({ status: "unavailable", reason: "The database does not answer." });
    }
    const migrations = { applied: status.applied, shipped: status.shipped };
    if (status.missing.length > 0) {
      return reply.status(503).send({
        status: "unavailable",
        reason: `${status.missing.length} migration(s) not applied.`,
        migrations: { ...migrations, missing: status.missing },
      });
    }
    return { status: "ready", migrations };
  });
}
