import type { FastifyRequest } from "fastify";
import type { RestRegistrar } from "./route";

const body = (req: FastifyRequest): Record<string, unknown> =>
  req.body && typeof req.body === "object" ? (req.body as Record<string, unknown>) : {};
const examId = (req: FastifyRequest) => (req.params as { id: string }).id;
const code = (req: FastifyRequest) => (req.params as { code: string }).code;

/**
 * Practice and mock exams (issue 16) over the same procedures as the SPA and the CLI. The static paths
 * (`/join`, `/mocks`) win over `/:id` (fastify matches static segments first).
 */
export const registerExamRoutes: RestRegistrar = (route) => {
  route("POST", "/api/exams", (caller, req) => caller.exams.create(body(req) as never), {
    status: 201,
  });
  route("GET", "/api/exams", (caller) => caller.exams.list());
  route("GET", "/api/exams/:id", (caller, req) => caller.exams.get({ examId: examId(req) }));
  route("DELETE", "/api/exams/:id", (caller, req) => caller.exams.delete({ examId: examId(req) }), {
    withSuccess: true,
  });
  route("POST", "/api/exams/:id/answer", (caller, req) =>
    caller.exams.answer({ ...body(req), examId: examId(req) } as never),
  );
  route("POST", "/api/exams/:id/flag", (caller, req) =>
    caller.exams.flag({ ...body(req), examId: examId(req) } as never),
  );
  route("POST", "/api/exams/:id/eliminate", (caller, req) =>
    caller.exams.eliminate({ ...body(req), examId: examId(req) } as never),
  );
  route("POST", "/api/exams/:id/submit", (caller, req) =>
    caller.exams.submit({ examId: examId(req) }),
  );
  route("GET", "/api/exams/:id/report", (caller, req) =>
    caller.exams.report({ examId: examId(req) }),
  );
  route("GET", "/api/exams/:id/review", (caller, req) => {
    const { filter } = req.query as { filter?: string };
    return caller.exams.review({ examId: examId(req), filter: (filter || undefined) as never });
  });
  route("POST", "/api/exams/:id/study-incorrect", (caller, req) =>
    caller.exams.studyIncorrect({ examId: examId(req) }),
  );
  route(
    "POST",
    "/api/exams/:id/share",
    (caller, req) => caller.exams.share({ examId: examId(req) }),
    { status: 201 },
  );
  route("POST", "/api/exams/join", (caller, req) =>
    caller.exams.join({ code: body(req).code } as never),
  );
  route("GET", "/api/exams/mocks", (caller) => caller.exams.mocks());
  route("GET", "/api/exams/mocks/:code/results", (caller, req) =>
    caller.exams.mockResults({ code: code(req) }),
  );
  route("POST", "/api/exams/mocks/:code/close", (caller, req) =>
    caller.exams.close({ code: code(req) }),
  );
  route("GET", "/api/admin/mock-exams", (caller) => caller.exams.allMocks());
};
