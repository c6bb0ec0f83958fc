import type { RestCall } from "./call";
import { arr, bool, id, named, nullable, num, obj, str } from "./shape";

/** A report on a question (issue 36, docs/product/reports.md): its reporter is never named. */
export const Report = named(
  "Report",
  obj({
    id,
    questionId: id,
    kind: str,
    comment: str,
    status: str,
    response: str,
    createdAt: str,
    resolvedAt: nullable(str),
    mine: bool,
    question: obj({
      excerpt: str,
      category: str,
      visibility: str,
      own: bool,
      takenDownAt: nullable(str),
      takedownPending: bool,
    }),
  }),
);

// Issue 36: reports, the review queue and takedown (docs/product/reports.md).
export const REPORT_CALLS: readonly RestCall[] = [
  {
    method: "POST",
    path: "/api/questions/:id/reports",
    spec: false,
    access: "user",
    request:
      "{kind: wrong_answer | unclear | outdated | duplicate | copyright | other, comment?} (comment required for other; at most 2,000 characters). One open report per user and question (409).",
    status: 201,
    response: obj({ report: Report, takenDown: bool }),
  },
  {
    method: "GET",
    path: "/api/reports",
    spec: false,
    access: "user",
    request:
      "query: open=true for open reports only. Reports on the questions the caller handles (own; their program's as a director; public and taken-down ones as an admin), takedowns first.",
    status: 200,
    response: obj({ openCount: num, reports: arr(Report) }),
  },
  {
    method: "GET",
    path: "/api/reports/mine",
    spec: false,
    access: "user",
    request: "— The caller's own reports with the answers, newest first.",
    status: 200,
    response: arr(Report),
  },
  {
    method: "POST",
    path: "/api/reports/:id/resolve",
    spec: false,
    access: "user",
    request:
      "{outcome: answered | fixed | dismissed, note?} (note required for answered; shown to the reporter). The question's handlers only.",
    status: 200,
    response: Report,
  },
];
