import { ZAiProcessRequest, ZParserQuestionsRequest } from "../features/ai/ai.types";
import { bodyInput } from "./input";
import type { RestRegistrar } from "./route";

/** docs/product/rest-api.md: the AI path answers `{success, data, error}`; the parser path the list itself (decision 150). */
export const registerAiRoutes: RestRegistrar = (route) => {
  route(
    "POST",
    "/api/openai",
    (caller, req) => caller.ai.process(bodyInput(ZAiProcessRequest, req.body)),
    { withSuccess: true, withError: true },
  );
  route(
    "POST",
    "/api/parser/questions",
    async (caller, req) =>
      (await caller.parser.questions(bodyInput(ZParserQuestionsRequest, req.body))).questions,
  );
};
