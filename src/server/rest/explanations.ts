import {
  ZGenerateExplanationRequest,
  ZSaveExplanationRequest,
} from "../features/explanations/explanations.types";
import { bodyInput } from "./input";
import type { RestRegistrar } from "./route";

/** docs/product/rest-api.md: both paths answer `{explanation}` / `{message, question}`; failures carry `error` too. */
export const registerExplanationRoutes: RestRegistrar = (route) => {
  route(
    "POST",
    "/api/explanation/generate",
    (caller, req) => caller.explanations.generate(bodyInput(ZGenerateExplanationRequest, req.body)),
    { withError: true },
  );
  route(
    "POST",
    "/api/explanation/save",
    (caller, req) => caller.explanations.save(bodyInput(ZSaveExplanationRequest, req.body)),
    { withError: true },
  );
};
