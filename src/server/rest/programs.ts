import type { FastifyRequest } from "fastify";
import {
  ZProgramCodeInput,
  ZProgramCreate,
  ZProgramIdInput,
  ZProgramMemberInput,
  ZProgramSetRole,
  ZProgramUpdate,
} from "../../core/schemas/program";
import { bodyInput, fieldsInput } from "./input";
import type { RestRegistrar } from "./route";

const body = (req: FastifyRequest): Record<string, unknown> =>
  req.body && typeof req.body === "object" ? (req.body as Record<string, unknown>) : {};
const params = (req: FastifyRequest) => req.params as { id: string; userId?: string };

/**
 * Residency programs and their members (issue 32, docs/product/programs.md) over the same procedures
 * as the SPA and the CLI. `GET /api/programs` is the caller's own program as a list of none or one,
 * admins included; every program is `GET /api/admin/programs` (decision 348). The static `/join`
 * wins over `/:id`.
 */
export const registerProgramRoutes: RestRegistrar = (route) => {
  route("GET", "/api/programs", async (caller) => {
    const mine = await caller.programs.mine();
    return mine ? [mine] : [];
  });
  route(
    "POST",
    "/api/programs",
    (caller, req) => caller.programs.create(bodyInput(ZProgramCreate, body(req))),
    { status: 201 },
  );
  route("POST", "/api/programs/join", (caller, req) =>
    caller.programs.join(fieldsInput(ZProgramCodeInput, { code: body(req).code })),
  );
  route("GET", "/api/programs/:id", (caller, req) =>
    caller.programs.get(fieldsInput(ZProgramIdInput, { id: params(req).id })),
  );
  route("PATCH", "/api/programs/:id", (caller, req) => {
    const { name, institution, inactiveDays, accuracyFlag } = body(req);
    return caller.programs.update(
      fieldsInput(ZProgramUpdate, {
        id: params(req).id,
        name,
        institution,
        inactiveDays,
        accuracyFlag,
      }),
    );
  });
  route("POST", "/api/programs/:id/leave", (caller, req) =>
    caller.programs.leave(fieldsInput(ZProgramIdInput, { id: params(req).id })),
  );
  route("POST", "/api/programs/:id/code", (caller, req) =>
    caller.programs.renewCode(fieldsInput(ZProgramIdInput, { id: params(req).id })),
  );
  route("GET", "/api/programs/:id/members", (caller, req) =>
    caller.programs.members(fieldsInput(ZProgramIdInput, { id: params(req).id })),
  );
  route("PATCH", "/api/programs/:id/members/:userId", (caller, req) =>
    caller.programs.setRole(
      fieldsInput(ZProgramSetRole, {
        id: params(req).id,
        userId: params(req).userId,
        role: body(req).role,
      }),
    ),
  );
  route("DELETE", "/api/programs/:id/members/:userId", (caller, req) =>
    caller.programs.removeMember(
      fieldsInput(ZProgramMemberInput, { id: params(req).id, userId: params(req).userId }),
    ),
  );
  route("GET", "/api/admin/programs", (caller) => caller.programs.all());
};
