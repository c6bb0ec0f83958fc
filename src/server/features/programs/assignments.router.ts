import {
  ZCreateAssignment,
  ZListAssignments,
  ZReserveQuestions,
  ZStartAssignment,
  ZUpdateAssignment,
} from "../../../core/programs/assignments";
import { protectedProcedure, router } from "../../trpc/init";
import {
  createAssignment,
  listAssignments,
  openAssignments,
  reserveQuestions,
  startAssignment,
  updateAssignment,
} from "./assignments.service";
import { directorProcedure, memberProcedure } from "./program-access";

/** Program assignments and reserved questions (issue 32, docs/product/assignments.md). */
export const assignmentsRouter = router({
  /** A director gives the program or a PGY class an exam or a study set. */
  create: directorProcedure.input(ZCreateAssignment).mutation(({ ctx, input }) =>
    createAssignment(ctx.db, {
      membership: ctx.membership,
      userId: ctx.user.id,
      now: ctx.now(),
      input,
    }),
  ),

  /** Directors: every assignment with each resident's status; residents: their own. */
  list: memberProcedure.input(ZListAssignments).query(({ ctx, input }) =>
    listAssignments(ctx.db, {
      membership: ctx.membership,
      userId: ctx.user.id,
      now: ctx.now(),
      programId: input.programId,
    }),
  ),

  /** Close, or a new due date (which reopens a closed assignment). */
  update: directorProcedure.input(ZUpdateAssignment).mutation(({ ctx, input }) =>
    updateAssignment(ctx.db, {
      membership: ctx.membership,
      userId: ctx.user.id,
      now: ctx.now(),
      input,
    }),
  ),

  /** Begins or resumes the caller's attempt at an exam assignment (then the exam runner's procedures). */
  start: memberProcedure.input(ZStartAssignment).mutation(({ ctx, input }) =>
    startAssignment(ctx.db, {
      membership: ctx.membership,
      userId: ctx.user.id,
      now: ctx.now(),
      assignmentId: input.assignmentId,
    }),
  ),

  /** The caller's open, unfinished assignments (Dashboard card, navigation badge); [] outside a program. */
  open: protectedProcedure.query(({ ctx }) =>
    openAssignments(ctx.db, { userId: ctx.user.id, now: ctx.now() }),
  ),

  /** Marks the program's own questions reserved for assessments, or releases them. */
  reserve: directorProcedure
    .input(ZReserveQuestions)
    .mutation(({ ctx, input }) =>
      reserveQuestions(ctx.db, { membership: ctx.membership, userId: ctx.user.id, ...input }),
    ),
});
