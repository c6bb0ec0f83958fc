import type { RestCall } from "./call";
import { arr, id, named, nullable, num, obj, str } from "./shape";

const summaryFields = {
  id,
  kind: str,
  title: str,
  pgyLevel: nullable(str),
  categories: arr(str),
  questionCount: num,
  dueAt: str,
  closedAt: nullable(str),
  createdAt: str,
  mockExamId: nullable(id),
  mode: nullable(str),
};

/** One assignment of a program (issue 32): an exam or a study set with its due date. */
export const Assignment = named("Assignment", obj(summaryFields));

// Issue 32: a program's assignments (docs/product/assignments.md).
export const ASSIGNMENT_CALLS: readonly RestCall[] = [
  {
    method: "GET",
    path: "/api/programs/:id/assignments",
    spec: false,
    access: "user",
    request:
      "— (the caller's own program). Directors get each assignment with `residents` (status not_started | in_progress | done | late, scorePercent); residents their own with `status`.",
    status: 200,
    response: obj({ role: str, programId: id, assignments: arr(obj(summaryFields)) }),
  },
  {
    method: "POST",
    path: "/api/programs/:id/assignments",
    spec: false,
    access: "user",
    request:
      "Directors. {kind: exam, size 5-150, mode?: timed | tutor, part?, categories?, secondsPerQuestion?, due: YYYY-MM-DD | ISO time, pgyLevel?, title?} or {kind: study, categories?, count 1-1000, due, pgyLevel?, title?}",
    status: 201,
    response: obj({ assignment: Assignment, notice: nullable(str) }),
  },
  {
    method: "PATCH",
    path: "/api/programs/:id/assignments/:assignmentId",
    spec: false,
    access: "user",
    request:
      "Directors. {closed: true} to close, or {due} for a new due date (reopens a closed one)",
    status: 200,
    response: Assignment,
  },
];
