import { ZProfileInput, ZSettingsInput } from "../../../core/schemas";
import { auditMeta } from "../audit/audit.service";
import { protectedProcedure, router } from "../../trpc/init";
import { ANKI_EXPORT_MESSAGES, exportAnkiPackage } from "./anki-export.service";
import { loadUserJson } from "./user-json";
import {
  deleteAccount,
  exportQuestions,
  exportStudyData,
  markScoresOnboardingOffered,
  resetStudyProgress,
  updateProfile,
  updateSettings,
} from "./users.service";
import { USER_MESSAGES } from "./users.types";
import { scoreSharing, setScoreSharing } from "../programs/program-report.service";
import { z } from "zod";

/** The signed-in user's own profile, settings and data (docs/product/rest-api.md /users rows); never anyone else's. */
export const usersRouter = router({
  updateProfile: protectedProcedure.input(ZProfileInput).mutation(async ({ ctx, input }) => {
    const row = await updateProfile(ctx.db, ctx.user.id, input);
    return {
      success: true as const,
      user: await loadUserJson(ctx.db, row),
      message: USER_MESSAGES.PROFILE_UPDATED,
    };
  }),

  updateSettings: protectedProcedure.input(ZSettingsInput).mutation(async ({ ctx, input }) => {
    const row = await updateSettings(ctx.db, ctx.user.id, input);
    return {
      success: true as const,
      user: await loadUserJson(ctx.db, row),
      message: USER_MESSAGES.SETTINGS_UPDATED,
    };
  }),

  markScoresOnboardingOffered: protectedProcedure.mutation(async ({ ctx }) => {
    const row = await markScoresOnboardingOffered(ctx.db, ctx.user.id, ctx.now());
    return { success: true as const, user: await loadUserJson(ctx.db, row) };
  }),

  /** Whether the caller's PRITE scores reach their program's dashboard (off by default). */
  scoreSharing: protectedProcedure.query(({ ctx }) => scoreSharing(ctx.db, ctx.user.id)),

  setScoreSharing: protectedProcedure
    .input(z.object({ share: z.boolean({ error: "Choose whether to share your scores" }) }))
    .mutation(({ ctx, input }) => setScoreSharing(ctx.db, ctx.user.id, input.share)),

  exportStudyData: protectedProcedure.query(async ({ ctx }) => ({
    success: true as const,
    data: await exportStudyData(ctx.db, ctx.user.id, ctx.now()),
    message: USER_MESSAGES.STUDY_DATA_EXPORTED,
  })),

  exportQuestions: protectedProcedure.query(async ({ ctx }) => ({
    success: true as const,
    questions: await exportQuestions(ctx.db, ctx.user.id),
    message: USER_MESSAGES.QUESTIONS_EXPORTED,
  })),

  /** The user's own questions as an Anki .apkg (decision 245), base64 in the JSON. */
  exportAnki: protectedProcedure.query(async ({ ctx }) => ({
    success: true as const,
    ...(await exportAnkiPackage(ctx.db, ctx.user.id, ctx.now())),
    message: ANKI_EXPORT_MESSAGES.EXPORTED,
  })),

  resetStudyProgress: protectedProcedure.mutation(async ({ ctx }) => {
    await resetStudyProgress(ctx.db, ctx.user.id);
    return { success: true as const, message: USER_MESSAGES.PROGRESS_RESET };
  }),

  deleteAccount: protectedProcedure.mutation(async ({ ctx }) => {
    await deleteAccount(ctx.db, ctx.user.id, auditMeta(ctx));
    ctx.clearSessionCookie();
    return { success: true as const, message: USER_MESSAGES.ACCOUNT_DELETED };
  }),
});
