import type { FastifyRequest } from "fastify";
import {
  ZCreateExamRequest,
  ZExamAnswerRequest,
  ZExamEliminateRequest,
  ZExamFlagRequest,
  ZExamReviewRequest,
  ZJoinCodeInput,
} from "../../core/schemas/exam";
import { bodyInput, fieldsInput } from "./input";
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
  route(
    "POST",
    "/api/exams",
    (caller, req) => caller.exams.create(bodyInput(ZCreateExamRequest, body(req))),
    {
      status: 201,
    },
  );
  route("GET", "/api/exams", (caller) => caller.exams.list());
  route("GET", "/api/exams/:id", (caller, req) => caller.exams.get({ examId: examId(req) }));
  route("DELETE", "/api/exams/:id", (caller, req) => caller.exams.delete({ examId: examId(req) }), {
    withSuccess: true,
  });
  route("POST", "/api/exams/:id/answer", (caller, req) => {
    const { questionId, selected, timeSpentMs } = body(req);
    return caller.exams.answer(
      fieldsInput(ZExamAnswerRequest, { examId: examId(req), questionId, selected, timeSpentMs }),
    );
  });
  route("POST", "/api/exams/:id/flag", (caller, req) => {
    const { questionId, flagged } = body(req);
    return caller.exams.flag(
      fieldsInput(ZExamFlagRequest, { examId: examId(req), questionId, flagged }),
    );
  });
  route("POST", "/api/exams/:id/eliminate", (caller, req) => {
    const { questionId, eliminated } = body(req);
    return caller.exams.eliminate(
      fieldsInput(ZExamEliminateRequest, { examId: examId(req), questionId, eliminated }),
    );
  });
  route("POST", "/api/exams/:id/submit", (caller, req) =>
    caller.exams.submit({ examId: examId(req) }),
  );
  route("GET", "/api/exams/:id/report", (caller, req) =>
    caller.exams.report({ examId: examId(req) }),
  );
  route("GET", "/api/exams/:id/review", (caller, req) => {
    const { filter } = req.query as { filter?: string };
    return caller.exams.review(
      fieldsInput(ZExamReviewRequest, { examId: examId(req), filter: filter || undefined }),
    );
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
    caller.exams.join(fieldsInput(ZJoinCodeInput, { code: body(req).code })),
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
