import type { FastifyInstance } from "fastify";
import type { HttpContextFactory } from "../http-context";
import { restRoute } from "./adapter";
import type { RestRegistrar, Route } from "./route";
import { registerAdminRoutes } from "./admin";
import { registerAuthRoutes } from "./auth";
import { registerUserRoutes } from "./users";
import { registerExplanationRoutes } from "./explanations";
import { registerStatsRoutes } from "./stats";
import { registerStudyRoutes } from "./study";
import { registerQuestionRoutes } from "./questions";
import { registerAnswerKeyRoutes } from "./answer-keys";
import { registerAiRoutes } from "./ai";
import { registerExamRoutes } from "./exams";
import { registerMediaRoutes } from "./media";
import { registerPasswordResetRoutes } from "./password-reset";
import { registerProgramRoutes } from "./programs";
import { registerAssignmentRoutes } from "./assignments";
import { registerProgramReportRoutes } from "./program-report";
import { registerReportRoutes } from "./reports";

/** One file per area; each adds its documented paths here. */
const registrars: RestRegistrar[] = [
  registerAuthRoutes,
  registerUserRoutes,
  registerAdminRoutes,
  registerQuestionRoutes,
  registerStudyRoutes,
  registerStatsRoutes,
  registerExplanationRoutes,
  registerAnswerKeyRoutes,
  registerAiRoutes,
  registerExamRoutes,
  registerMediaRoutes,
  registerPasswordResetRoutes,
  registerProgramRoutes,
  registerAssignmentRoutes,
  registerProgramReportRoutes,
  registerReportRoutes,
];

export function registerRestRoutes(app: FastifyInstance, makeContext: HttpContextFactory): void {
  const route: Route = (method, url, handler, opts) =>
    restRoute(app, makeContext, method, url, handler, opts);
  for (const register of registrars) register(route);
}
