/**
 * Settings > Study's exam plan (issue 34, docs/product/exam-plan.md): what `study.setPlan` accepts.
 * Ranges here; "after today" needs the resident's time zone and is checked by the server.
 */
import { z } from "zod";
import { CATEGORIES, LIMITS } from "../constants";
import { MAX_EXAM_TARGET, MIN_EXAM_TARGET } from "../srs/exam-plan";

/** Longest horizon an exam date may have, in days. */
export const MAX_EXAM_DAYS = 730;

export const PLAN_MESSAGES = {
  EXAM_DATE: "The exam date must be a date (YYYY-MM-DD)",
  EXAM_DATE_PAST: "The exam date must be after today",
  EXAM_DATE_FAR: "The exam date must be within two years",
  TARGET: `The target recall must be between ${MIN_EXAM_TARGET} and ${MAX_EXAM_TARGET}`,
  MAX_NEW: "The most new questions a day must be a whole number from 0 to 500",
  NEW_PER_DAY: "New questions per day must be a whole number from 0 to 500",
  CATEGORY: "Pick categories from the PRITE's list",
  EASY_DAYS: "Easy days are weekdays from 0 (Sunday) to 6 (Saturday)",
} as const;

/** Settings > Study's plan fields; every field optional (only what is given changes). */
export const ZPlanInput = z
  .object({
    examDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, PLAN_MESSAGES.EXAM_DATE)
      .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), PLAN_MESSAGES.EXAM_DATE)
      .nullable()
      .optional(),
    examTargetRetention: z
      .number({ error: PLAN_MESSAGES.TARGET })
      .min(MIN_EXAM_TARGET, PLAN_MESSAGES.TARGET)
      .max(MAX_EXAM_TARGET, PLAN_MESSAGES.TARGET)
      .optional(),
    maxNewPerDay: z
      .number({ error: PLAN_MESSAGES.MAX_NEW })
      .int(PLAN_MESSAGES.MAX_NEW)
      .min(0, PLAN_MESSAGES.MAX_NEW)
      .max(500, PLAN_MESSAGES.MAX_NEW)
      .optional(),
    newPerDay: z
      .number({ error: PLAN_MESSAGES.NEW_PER_DAY })
      .int(PLAN_MESSAGES.NEW_PER_DAY)
      .min(0, PLAN_MESSAGES.NEW_PER_DAY)
      .max(500, PLAN_MESSAGES.NEW_PER_DAY)
      .optional(),
    planCategories: z
      .array(
        z
          .string()
          .max(LIMITS.CATEGORY)
          .refine((c) => (CATEGORIES as readonly string[]).includes(c), PLAN_MESSAGES.CATEGORY),
      )
      .max(CATEGORIES.length)
      .transform((list) => [...new Set(list)])
      .optional(),
    loadBalance: z.boolean().optional(),
    easyDays: z
      .array(
        z
          .number()
          .int(PLAN_MESSAGES.EASY_DAYS)
          .min(0, PLAN_MESSAGES.EASY_DAYS)
          .max(6, PLAN_MESSAGES.EASY_DAYS),
      )
      .max(7)
      .transform((list) => [...new Set(list)].sort())
      .optional(),
  })
  .strict();
export type TPlanInput = z.output<typeof ZPlanInput>;
