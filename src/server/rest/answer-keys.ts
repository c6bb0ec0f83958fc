import type { FastifyRequest } from "fastify";
import { notFound } from "../errors";
import {
  ANSWER_KEY_MESSAGES,
  ZApplyAnswerKeyRequest,
  ZImportAnswerKeyRequest,
  ZPartYear,
  ZSaveAnswerKeyRequest,
} from "../features/answer-keys/answer-keys.types";
import { bodyInput, fieldsInput } from "./input";
import type { RestRegistrar } from "./route";

type PartYearParams = { part: string; year: string };
const partYear = (req: FastifyRequest) => {
  const { part, year } = req.params as PartYearParams;
  return { part, year };
};
const body = (req: FastifyRequest): Record<string, unknown> =>
  req.body && typeof req.body === "object" ? (req.body as Record<string, unknown>) : {};

/** The caller's answer keys (docs/product/product-decisions.md): one per part and year; saving replaces. */
export const registerAnswerKeyRoutes: RestRegistrar = (route) => {
  route("GET", "/api/answer-keys", (caller) => caller.answerKeys.list());
  route("GET", "/api/answer-keys/:part/:year", async (caller, req) => {
    const key = await caller.answerKeys.get(fieldsInput(ZPartYear, partYear(req)));
    if (!key) throw notFound(ANSWER_KEY_MESSAGES.NOT_FOUND);
    return key;
  });
  // `{part, year, answers}` saves a parsed key; `{part, year, text}` parses the pasted text first.
  route(
    "POST",
    "/api/answer-keys",
    (caller, req) => {
      const input = body(req);
      return typeof input.text === "string" && input.answers === undefined
        ? caller.answerKeys.importText(bodyInput(ZImportAnswerKeyRequest, input))
        : caller.answerKeys.save(bodyInput(ZSaveAnswerKeyRequest, input));
    },
    { status: 201 },
  );
  route("DELETE", "/api/answer-keys/:part/:year", (caller, req) =>
    caller.answerKeys.delete(fieldsInput(ZPartYear, partYear(req))),
  );
  route("POST", "/api/answer-keys/:part/:year/apply", (caller, req) =>
    caller.answerKeys.applyToQuestions(
      fieldsInput(ZApplyAnswerKeyRequest, { ...partYear(req), overwrite: body(req).overwrite }),
    ),
  );
};
