import { adminRouter } from "../features/admin/admin.router";
import { authRouter } from "../features/auth/auth.router";
import { questionsRouter } from "../features/questions/questions.router";
import { explanationsRouter } from "../features/explanations/explanations.router";
import { statsRouter } from "../features/stats/stats.router";
import { studyRouter } from "../features/study/study.router";
import { scoresRouter } from "../features/scores/scores.router";
import { usersRouter } from "../features/users/users.router";
import { importsRouter } from "../features/imports/imports.router";
import { answerKeysRouter } from "../features/answer-keys/answer-keys.router";
import { aiRouter, parserRouter } from "../features/ai/ai.router";
import { examsRouter } from "../features/exams/exams.router";
import { mediaRouter } from "../features/media/media.router";
import { programsRouter } from "../features/programs/programs.router";
import { assignmentsRouter } from "../features/programs/assignments.router";
import { programReportRouter } from "../features/programs/program-report.router";
import { reportsRouter } from "../features/reports/reports.router";
import { createCallerFactory, router } from "./init";

export const appRouter = router({
  auth: authRouter,
  users: usersRouter,
  scores: scoresRouter,
  admin: adminRouter,
  questions: questionsRouter,
  study: studyRouter,
  stats: statsRouter,
  explanations: explanationsRouter,
  imports: importsRouter,
  answerKeys: answerKeysRouter,
  ai: aiRouter,
  parser: parserRouter,
  exams: examsRouter,
  media: mediaRouter,
  programs: programsRouter,
  assignments: assignmentsRouter,
  programReport: programReportRouter,
  reports: reportsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
