import type { RestRegistrar } from "./route";

/** SPEC §7: both paths answer `{explanation}` / `{message, question}`; failures carry `error` too. */
export const registerExplanationRoutes: RestRegistrar = (route) => {
  route(
    "POST",
    "/api/explanation/generate",
    (caller, req) => caller.explanations.generate(req.body as never),
    { withError: true },
  );
  route(
    "POST",
    "/api/explanation/save",
    (caller, req) => caller.explanations.save(req.body as never),
    {
      withError: true,
    },
  );
};
