import {
  ZProgramCodeInput,
  ZProgramCreate,
  ZProgramMemberInput,
  ZProgramSetRole,
  ZProgramUpdate,
} from "../../../core/schemas/program";
import { adminProcedure, protectedProcedure, router } from "../../trpc/init";
import type { Context } from "../../trpc/context";
import { auditMeta } from "../audit/audit.service";
import { listMembers, removeMember, setMemberRole } from "./program-members.service";
import { programDirectorProcedure, programMemberProcedure } from "./program-access";
import {
  createProgram,
  getProgram,
  joinProgram,
  leaveProgram,
  listAllPrograms,
  myProgram,
  previewProgram,
  renewCode,
  updateProgram,
} from "./programs.service";

const withLink = (ctx: Context) => ({ ...auditMeta(ctx), publicUrl: ctx.config.publicUrl });

/**
 * A director's change to another member takes effect on that member's very next request: their cached
 * sessions are forgotten here (the mutation's own upkeep forgets only the caller's).
 */
const forgetMember = (ctx: Context, userId: string) => ctx.sessionCache?.forgetUser(userId);

/** Residency programs and their members (issue 32, docs/product/programs.md). */
export const programsRouter = router({
  /** The caller's program and role, or null. */
  mine: protectedProcedure.query(({ ctx }) => myProgram(ctx.db, ctx.user.id, ctx.config.publicUrl)),
  get: programMemberProcedure.query(({ ctx, input }) =>
    getProgram(ctx.db, ctx.user.id, input.id, ctx.config.publicUrl),
  ),
  create: protectedProcedure
    .input(ZProgramCreate)
    .mutation(({ ctx, input }) => createProgram(ctx.db, ctx.user, input, withLink(ctx))),
  /** The join page's name and institution for a code (signed-in users). */
  preview: protectedProcedure
    .input(ZProgramCodeInput)
    .query(({ ctx, input }) => previewProgram(ctx.db, ctx.user.id, input.code)),
  join: protectedProcedure
    .input(ZProgramCodeInput)
    .mutation(({ ctx, input }) => joinProgram(ctx.db, ctx.user, input.code, withLink(ctx))),
  leave: programMemberProcedure.mutation(({ ctx, input }) =>
    leaveProgram(ctx.db, ctx.user, input.id, auditMeta(ctx)),
  ),
  members: programMemberProcedure.query(({ ctx, input }) =>
    listMembers(ctx.db, input.id, ctx.membership.role),
  ),
  setRole: programDirectorProcedure.input(ZProgramSetRole).mutation(async ({ ctx, input }) => {
    try {
      return await setMemberRole(ctx.db, ctx.user, input, auditMeta(ctx));
    } finally {
      forgetMember(ctx, input.userId);
    }
  }),
  removeMember: programDirectorProcedure
    .input(ZProgramMemberInput)
    .mutation(async ({ ctx, input }) => {
      try {
        return await removeMember(ctx.db, ctx.user, input, auditMeta(ctx));
      } finally {
        forgetMember(ctx, input.userId);
      }
    }),
  renewCode: programDirectorProcedure.mutation(({ ctx, input }) =>
    renewCode(ctx.db, ctx.user, input.id, withLink(ctx)),
  ),
  update: programDirectorProcedure
    .input(ZProgramUpdate)
    .mutation(({ ctx, input }) => updateProgram(ctx.db, ctx.user.id, input, ctx.config.publicUrl)),
  /** The Admin page: every program, its size and directors. */
  all: adminProcedure.query(({ ctx }) => listAllPrograms(ctx.db)),
});
