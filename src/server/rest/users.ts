import type { FastifyRequest } from "fastify";
import { ZProfileInput, ZSettingsInput } from "../../core/schemas";
import { ZCreateScoreRequest, ZUpdateScoreRequest } from "../features/scores/scores.types";
import { bodyInput, fieldsInput } from "./input";
import type { RestRegistrar } from "./route";

function body(req: FastifyRequest): Record<string, unknown> {
  return typeof req.body === "object" && req.body !== null && !Array.isArray(req.body)
    ? (req.body as Record<string, unknown>)
    : {};
}

function idParam(req: FastifyRequest): string {
  return (req.params as { id: string }).id;
}

/** docs/product/rest-api.md /users rows: profile, settings, exports, reset, deletion and PRITE scores. */
export const registerUserRoutes: RestRegistrar = (route) => {
  const withSuccess = { withSuccess: true };
  route(
    "PUT",
    "/api/users/profile",
    (caller, req) => caller.users.updateProfile(bodyInput(ZProfileInput, body(req))),
    withSuccess,
  );
  route(
    "PUT",
    "/api/users/settings",
    (caller, req) => caller.users.updateSettings(bodyInput(ZSettingsInput, body(req))),
    withSuccess,
  );
  route(
    "GET",
    "/api/users/export/study-data",
    (caller) => caller.users.exportStudyData(),
    withSuccess,
  );
  route(
    "GET",
    "/api/users/export/questions",
    (caller) => caller.users.exportQuestions(),
    withSuccess,
  );
  route("GET", "/api/users/export/anki", (caller) => caller.users.exportAnki(), withSuccess);
  route(
    "POST",
    "/api/users/reset-study-progress",
    (caller) => caller.users.resetStudyProgress(),
    withSuccess,
  );
  route("DELETE", "/api/users/account", (caller) => caller.users.deleteAccount(), withSuccess);

  // The original client reads `data.scores` and `data.score` (decision 150); delete keeps `{message}`.
  route("GET", "/api/users/prite-scores", async (caller) => ({
    scores: await caller.scores.list(),
  }));
  route("GET", "/api/users/prite-scores/:id", async (caller, req) => ({
    score: await caller.scores.get({ id: idParam(req) }),
  }));
  route(
    "POST",
    "/api/users/prite-scores",
    async (caller, req) => ({
      score: await caller.scores.create(bodyInput(ZCreateScoreRequest, body(req))),
    }),
    { status: 201 },
  );
  route("PUT", "/api/users/prite-scores/:id", async (caller, req) => ({
    score: await caller.scores.update(
      fieldsInput(ZUpdateScoreRequest, { ...body(req), id: idParam(req) }),
    ),
  }));
  route("DELETE", "/api/users/prite-scores/:id", (caller, req) =>
    caller.scores.delete({ id: idParam(req) }),
  );
};
