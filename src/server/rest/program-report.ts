import type { FastifyRequest } from "fastify";
import { reportCsv } from "../features/programs/program-report.service";
import type { RestRegistrar } from "./route";

const programId = (req: FastifyRequest) => (req.params as { id: string }).id;

/** Whether the client asked for CSV (`Accept: text/csv`) rather than JSON. */
export function wantsCsv(req: FastifyRequest): boolean {
  return /\btext\/csv\b/i.test(String(req.headers.accept ?? ""));
}

/** Which table a CSV answer holds (decision 362): `?table=heatmap`, or the roster. */
export function csvTable(req: FastifyRequest): "roster" | "heatmap" {
  return (req.query as { table?: unknown } | undefined)?.table === "heatmap" ? "heatmap" : "roster";
}

/**
 * The program dashboard (issue 32 item 6), over `programReport.report`: JSON, or one table as CSV with
 * `Accept: text/csv` (`?table=roster|heatmap`, roster by default).
 */
export const registerProgramReportRoutes: RestRegistrar = (route) => {
  route("GET", "/api/programs/:id/report", async (caller, req, reply) => {
    const report = await caller.programReport.report({ programId: programId(req) });
    if (!wantsCsv(req)) return report;
    const table = csvTable(req);
    return reply
      .status(200)
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="program-${table}.csv"`)
      .send(reportCsv(report, table));
  });
};
