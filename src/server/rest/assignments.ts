import type { FastifyRequest } from "fastify";
import { ZCreateAssignment, ZUpdateAssignment } from "../../core/programs/assignments";
import { bodyInput, fieldsInput } from "./input";
import type { RestRegistrar } from "./route";

const body = (req: FastifyRequest): Record<string, unknown> =>
  req.body && typeof req.body === "object" ? (req.body as Record<string, unknown>) : {};
const params = (req: FastifyRequest) => req.params as { id: string; assignmentId?: string };

/**
 * A program's assignments (issue 32, docs/product/assignments.md) over the same procedures as the SPA
 * and the CLI; the program in the path must be the caller's own (another answers 404).
 */
export const registerAssignmentRoutes: RestRegistrar = (route) => {
  route("GET", "/api/programs/:id/assignments", (caller, req) =>
    caller.assignments.list({ programId: params(req).id }),
  );
  route(
    "POST",
    "/api/programs/:id/assignments",
    (caller, req) =>
      caller.assignments.create(
        bodyInput(ZCreateAssignment, { ...body(req), programId: params(req).id }),
      ),
    { status: 201 },
  );
  route("PATCH", "/api/programs/:id/assignments/:assignmentId", (caller, req) => {
    const { closed, due } = body(req);
    return caller.assignments.update(
      fieldsInput(ZUpdateAssignment, {
        programId: params(req).id,
        assignmentId: params(req).assignmentId,
        closed,
        due,
      }),
    );
  });
};
