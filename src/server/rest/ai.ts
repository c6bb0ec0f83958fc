import type { RestRegistrar } from "./route";

/** SPEC §7: the AI path answers `{success, data, error}`; the parser path the list itself (decision 150). */
export const registerAiRoutes: RestRegistrar = (route) => {
  route("POST", "/api/openai", (caller, req) => caller.ai.process(req.body as never), {
    withSuccess: true,
    withError: true,
  });
  route(
    "POST",
    "/api/parser/questions",
    async (caller, req) => (await caller.parser.questions(req.body as never)).questions,
  );
};
