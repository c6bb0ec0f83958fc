import type { FastifyReply, FastifyRequest } from "fastify";
import { BULK_BODY_LIMIT } from "../body-limits";
import type { z } from "zod";
import { ZQuestionInput } from "../../core/schemas";
import { ZFlashcardInput } from "../../core/schemas/flashcard";
import {
  type QuestionPage,
  ZBulkCreateRequest,
  ZListQuestionsRequest,
  ZSearchQuestionsRequest,
  ZUpdateQuestionRequest,
} from "../features/questions/questions.types";
import { ZRestoreVersionRequest } from "../features/history/history.types";
import { bodyInput, fieldsInput, type RestFields } from "./input";
import type { RestRegistrar } from "./route";

type Query = Record<string, unknown>;

const query = (req: FastifyRequest): Query => (req.query ?? {}) as Query;
const idParam = (req: FastifyRequest): string => (req.params as { id: string }).id;

/** `page` is the documented name; `pageSize` or `limit` choose the page size. */
const paging = (q: Query): RestFields<z.input<typeof ZListQuestionsRequest>> => ({
  cursor: q.page,
  pageSize: q.pageSize ?? q.limit,
});

const PAGE_HEADERS = [
  "X-Total-Count",
  "X-Total-Count-Capped",
  "X-Page",
  "X-Page-Size",
  "X-Next-Page",
  "Link",
];

/**
 * docs/product/rest-api.md reads a plain list from these paths, so the page's items are the body and the paging facts
 * travel in headers (docs/decisions/010-question-search-and-pagination.md).
 */
function sendPage(req: FastifyRequest, reply: FastifyReply, page: QuestionPage) {
  reply.header("Access-Control-Expose-Headers", PAGE_HEADERS.join(", "));
  reply.header("X-Total-Count", String(page.total));
  if (page.totalCapped) reply.header("X-Total-Count-Capped", "true");
  reply.header("X-Page", String(page.page));
  reply.header("X-Page-Size", String(page.pageSize));
  if (page.nextCursor !== null) {
    const url = new URL(req.url, "http://local");
    url.searchParams.set("page", String(page.nextCursor));
    reply.header("X-Next-Page", String(page.nextCursor));
    reply.header("Link", `<${url.pathname}${url.search}>; rel="next"`);
  }
  return page.items;
}

export const registerQuestionRoutes: RestRegistrar = (route) => {
  route("GET", "/api/questions", async (caller, req, reply) =>
    sendPage(
      req,
      reply,
      await caller.questions.list(fieldsInput(ZListQuestionsRequest, paging(query(req)))),
    ),
  );
  route("GET", "/api/questions/search", async (caller, req, reply) => {
    const q = query(req);
    const page = await caller.questions.search(
      fieldsInput(ZSearchQuestionsRequest, {
        text: q.text,
        part: q.part,
        category: q.category,
        visibility: q.visibility,
        type: q.type,
        source: q.source,
        ...paging(q),
      }),
    );
    return sendPage(req, reply, page);
  });
  route("GET", "/api/questions/category-stats", (caller) => caller.questions.categoryStats());
  route("GET", "/api/questions/categories", (caller) => caller.questions.categories());
  route(
    "POST",
    "/api/questions/bulk",
    (caller, req) => caller.questions.bulkCreate(bodyInput(ZBulkCreateRequest, req.body)),
    {
      status: 201,
      bodyLimit: BULK_BODY_LIMIT,
    },
  );
  // One path for both kinds: `questionType: "flashcard"` with front and back makes a flashcard.
  route(
    "POST",
    "/api/questions",
    (caller, req) =>
      (req.body as { questionType?: unknown } | null)?.questionType === "flashcard"
        ? caller.questions.createFlashcard(bodyInput(ZFlashcardInput, req.body))
        : caller.questions.create(bodyInput(ZQuestionInput, req.body)),
    { status: 201 },
  );
  route("GET", "/api/questions/sources", (caller) => caller.questions.sources());
  route("GET", "/api/questions/:id", (caller, req) => caller.questions.get({ id: idParam(req) }));
  route("GET", "/api/questions/:id/stats", (caller, req) =>
    caller.questions.itemStats({ id: idParam(req) }),
  );
  route("PUT", "/api/questions/:id", (caller, req) =>
    caller.questions.update(
      fieldsInput(ZUpdateQuestionRequest, { id: idParam(req), data: req.body ?? {} }),
    ),
  );
  route("DELETE", "/api/questions/:id", (caller, req) =>
    caller.questions.delete({ id: idParam(req) }),
  );
  // Issue 36 item 4: the edit history and the restore of a version.
  route("GET", "/api/questions/:id/history", (caller, req) =>
    caller.questions.history({ id: idParam(req) }),
  );
  route("POST", "/api/questions/:id/history/:version/restore", (caller, req) =>
    caller.questions.restoreVersion(
      fieldsInput(ZRestoreVersionRequest, {
        id: idParam(req),
        version: (req.params as { version: string }).version,
      }),
    ),
  );
};
