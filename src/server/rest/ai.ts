import type { RestRegistrar } from "./index";

/** SPEC §7: the AI path answers `{success, data, error}`; the parser path `{questions}`. */
export const registerAiRoutes: RestRegistrar = (route) => {
  route("POST", "/api/openai", (caller, req) => caller.ai.process(req.body as never), {
    withSuccess: true,
    withError: true,
  });
  route("POST", "/api/parser/questions", (caller, req) =>
    caller.parser.questions(req.body as never),
  );
};
