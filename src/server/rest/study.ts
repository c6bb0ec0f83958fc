import { ZDueQuery, ZRateInput, ZSyncInput } from "../../core/schemas/study";
import { duePageJson } from "../features/study/study.service";
import { ZRateFlashcardRequest } from "../features/study/study.router";
import { bodyInput, fieldsInput } from "./input";
import type { RestRegistrar } from "./route";

/** Header carrying the full size of the due list; the body stays the documented list (decision 022). */
export const TOTAL_COUNT_HEADER = "x-total-count";

/**
 * docs/product/rest-api.md `GET /questions/due` and `PATCH /questions/{id}/study`. The static `/due` path wins over any
 * parametric `/api/questions/:id` route registered by the questions area (fastify matches static first).
 */
export const registerStudyRoutes: RestRegistrar = (route) => {
  route("GET", "/api/questions/due", async (caller, req, reply) => {
    const query = req.query as Record<string, string | undefined>;
    const page = await caller.study.due(
      fieldsInput(ZDueQuery, {
        category: query.category || undefined,
        // `pageSize` as on the other question lists (decision 022).
        limit: query.limit || query.pageSize || undefined,
        offset: query.offset || undefined,
      }),
    );
    reply.header(TOTAL_COUNT_HEADER, String(page.total));
    reply.header("access-control-expose-headers", TOTAL_COUNT_HEADER);
    // The list as PostgreSQL wrote it, neither parsed nor written again (issue 20).
    const json = duePageJson(page);
    if (json === undefined) return page.questions;
    reply.type("application/json; charset=utf-8");
    return json;
  });

  route("PATCH", "/api/questions/:id/study", (caller, req) => {
    const { id } = req.params as { id: string };
    const body = (req.body ?? {}) as { difficulty?: unknown };
    return caller.study.rate(
      fieldsInput(ZRateInput, { questionId: id, difficulty: body.difficulty }),
    );
  });

  // Issue 17: a flashcard rated Again/Hard/Good/Easy is its review.
  route("POST", "/api/questions/:id/flashcard-rating", (caller, req) => {
    const { id } = req.params as { id: string };
    const body = (req.body ?? {}) as {
      rating?: unknown;
      timeSpentMs?: unknown;
      sessionId?: unknown;
    };
    return caller.study.rateFlashcard(
      fieldsInput(ZRateFlashcardRequest, {
        questionId: id,
        rating: body.rating,
        timeSpentMs: body.timeSpentMs,
        sessionId: body.sessionId,
      }),
    );
  });

  route("GET", "/api/questions/:id/next-intervals", (caller, req) => {
    const { id } = req.params as { id: string };
    return caller.study.nextIntervals({ questionId: id });
  });

  // Answers given offline (issue 18): idempotent by each answer's id, so a lost reply can be resent.
  route("POST", "/api/study/sync", (caller, req) =>
    caller.study.sync(bodyInput(ZSyncInput, req.body ?? {})),
  );
};
