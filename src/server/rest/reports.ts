import type { FastifyRequest } from "fastify";
import { ZCreateReport, ZReportQueueQuery, ZResolveReport } from "../../core/reports";
import { fieldsInput } from "./input";
import type { RestRegistrar } from "./route";

const body = (req: FastifyRequest): Record<string, unknown> =>
  req.body && typeof req.body === "object" ? (req.body as Record<string, unknown>) : {};
const pathId = (req: FastifyRequest) => (req.params as { id: string }).id;

/**
 * Reports on questions (issue 36, docs/product/reports.md) over the same procedures as the SPA and the
 * CLI. Kinds: wrong_answer, unclear, outdated, duplicate, copyright, other; outcomes: answered, fixed,
 * dismissed.
 */
export const registerReportRoutes: RestRegistrar = (route) => {
  route(
    "POST",
    "/api/questions/:id/reports",
    (caller, req) => {
      const { kind, comment } = body(req);
      return caller.reports.create(
        fieldsInput(ZCreateReport, { questionId: pathId(req), kind, comment }),
      );
    },
    { status: 201 },
  );
  route("GET", "/api/reports", (caller, req) => {
    const open = (req.query as { open?: unknown } | undefined)?.open;
    return caller.reports.queue(
      fieldsInput(ZReportQueueQuery, { open: open === "true" || open === "1" }),
    );
  });
  route("GET", "/api/reports/mine", (caller) => caller.reports.mine());
  route("POST", "/api/reports/:id/resolve", (caller, req) => {
    const { outcome, note } = body(req);
    return caller.reports.resolve(fieldsInput(ZResolveReport, { id: pathId(req), outcome, note }));
  });
};
