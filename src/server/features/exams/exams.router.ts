import {
  ZCreateExamRequest,
  ZExamAnswerRequest,
  ZExamEliminateRequest,
  ZExamFlagRequest,
  ZExamIdInput,
  ZExamReviewRequest,
  ZJoinCodeInput,
} from "../../../core/schemas/exam";
import { adminProcedure, protectedProcedure, router } from "../../trpc/init";
import { examReport, examReview, studyIncorrect } from "./exam-report.service";
import {
  answerExamQuestion,
  eliminateExamOptions,
  flagExamQuestion,
  getExam,
} from "./exam-answers.service";
import { createExam } from "./exam-create.service";
import { deleteExam, listExams, submitExam } from "./exams.service";
import {
  closeMockExam,
  joinMockExam,
  mockResults,
  mockSummaries,
  shareExam,
} from "./mock-exams.service";

/** Practice exams and shared mock exams (issue 16). An exam is its taker's alone: others get 404. */
export const examsRouter = router({
  create: protectedProcedure
    .input(ZCreateExamRequest)
    .mutation(({ ctx, input }) =>
      createExam(ctx.db, { userId: ctx.user.id, now: ctx.now(), settings: input }),
    ),

  /** The exam with its questions in order, the answers saved so far and the time left. */
  get: protectedProcedure
    .input(ZExamIdInput)
    .query(({ ctx, input }) =>
      getExam(ctx.db, { userId: ctx.user.id, examId: input.examId, now: ctx.now() }),
    ),

  answer: protectedProcedure
    .input(ZExamAnswerRequest)
    .mutation(({ ctx, input }) =>
      answerExamQuestion(ctx.db, { userId: ctx.user.id, now: ctx.now(), ...input }),
    ),

  flag: protectedProcedure
    .input(ZExamFlagRequest)
    .mutation(({ ctx, input }) =>
      flagExamQuestion(ctx.db, { userId: ctx.user.id, now: ctx.now(), ...input }),
    ),

  eliminate: protectedProcedure
    .input(ZExamEliminateRequest)
    .mutation(({ ctx, input }) =>
      eliminateExamOptions(ctx.db, { userId: ctx.user.id, now: ctx.now(), ...input }),
    ),

  submit: protectedProcedure
    .input(ZExamIdInput)
    .mutation(({ ctx, input }) =>
      submitExam(ctx.db, { userId: ctx.user.id, examId: input.examId, now: ctx.now() }),
    ),

  /** History: the caller's exams, newest first. */
  list: protectedProcedure.query(({ ctx }) =>
    listExams(ctx.db, { userId: ctx.user.id, now: ctx.now() }),
  ),

  delete: protectedProcedure
    .input(ZExamIdInput)
    .mutation(({ ctx, input }) =>
      deleteExam(ctx.db, { userId: ctx.user.id, examId: input.examId }),
    ),

  report: protectedProcedure
    .input(ZExamIdInput)
    .query(({ ctx, input }) =>
      examReport(ctx.db, { userId: ctx.user.id, examId: input.examId, now: ctx.now() }),
    ),

  review: protectedProcedure
    .input(ZExamReviewRequest)
    .query(({ ctx, input }) =>
      examReview(ctx.db, { userId: ctx.user.id, now: ctx.now(), ...input }),
    ),

  studyIncorrect: protectedProcedure
    .input(ZExamIdInput)
    .mutation(({ ctx, input }) =>
      studyIncorrect(ctx.db, { userId: ctx.user.id, examId: input.examId, now: ctx.now() }),
    ),

  /** Turns an exam's settings into a shared mock exam of public questions with a join code. */
  share: protectedProcedure
    .input(ZExamIdInput)
    .mutation(({ ctx, input }) =>
      shareExam(ctx.db, { userId: ctx.user.id, examId: input.examId, now: ctx.now() }),
    ),

  join: protectedProcedure
    .input(ZJoinCodeInput)
    .mutation(({ ctx, input }) =>
      joinMockExam(ctx.db, { userId: ctx.user.id, code: input.code, now: ctx.now() }),
    ),

  /** The mock exams the caller created. */
  mocks: protectedProcedure.query(({ ctx }) => mockSummaries(ctx.db, { creatorId: ctx.user.id })),

  /** Every mock exam's summary, for the admin page. */
  allMocks: adminProcedure.query(({ ctx }) => mockSummaries(ctx.db, {})),

  mockResults: protectedProcedure
    .input(ZJoinCodeInput)
    .query(({ ctx, input }) => mockResults(ctx.db, { viewer: ctx.user, code: input.code })),

  close: protectedProcedure
    .input(ZJoinCodeInput)
    .mutation(({ ctx, input }) => closeMockExam(ctx.db, { userId: ctx.user.id, code: input.code })),
});
