import { z } from "zod";
import { FIRST_ACCEPTED_YEAR, LIMITS, PERCENTILE_MAX, PERCENTILE_MIN } from "../constants";
import { maxLengthMessage, numberish, wholeNumberInput } from "./common";

export const PRITE_SCORE_MESSAGES = {
  REQUIRED: "Year and Overall Percentile are required",
  PERCENTILE: `Percentiles must be whole numbers from ${PERCENTILE_MIN} to ${PERCENTILE_MAX}`,
  YEAR: "Please enter a valid year",
} as const;

const percentileNumber = (error: z.core.$ZodErrorMap) =>
  z
    .number({ error })
    .int(PRITE_SCORE_MESSAGES.PERCENTILE)
    .min(PERCENTILE_MIN, PRITE_SCORE_MESSAGES.PERCENTILE)
    .max(PERCENTILE_MAX, PRITE_SCORE_MESSAGES.PERCENTILE);

/** Optional percentile: empty input ('' or absent) is stored as null (docs/product/validation.md). */
export const ZOptionalPercentile = numberish(
  percentileNumber(() => PRITE_SCORE_MESSAGES.PERCENTILE).nullable(),
  null,
  PRITE_SCORE_MESSAGES.PERCENTILE,
);

const ZRequiredPercentile = numberish(
  percentileNumber((iss) =>
    iss.input === undefined ? PRITE_SCORE_MESSAGES.REQUIRED : PRITE_SCORE_MESSAGES.PERCENTILE,
  ),
  undefined,
  PRITE_SCORE_MESSAGES.PERCENTILE,
);

/**
 * The year is stored as a string (docs/product/data.md) but must read as a whole year; a number is accepted and
 * '02024' becomes '2024'. The clock-dependent upper bound is the server's `yearRangeError`.
 */
const ZScoreYear = numberish(
  z
    .number({
      error: (iss) =>
        iss.input === undefined ? PRITE_SCORE_MESSAGES.REQUIRED : PRITE_SCORE_MESSAGES.YEAR,
    })
    .int(PRITE_SCORE_MESSAGES.YEAR)
    .min(FIRST_ACCEPTED_YEAR, `Year must be ${FIRST_ACCEPTED_YEAR} or later`)
    .max(9999, PRITE_SCORE_MESSAGES.YEAR),
  undefined,
  PRITE_SCORE_MESSAGES.YEAR,
).transform(String);

function isBlank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === "string" && v.trim() === "");
}

/** docs/product/validation.md: an extra section is kept only when both its trimmed name and its percentile are filled. */
const ZSections = z
  .array(
    z.object({
      name: z.string({ error: "Section names must be text" }).nullish(),
      percentile: z
        .union([z.number(), z.string()], { error: PRITE_SCORE_MESSAGES.PERCENTILE })
        .nullish(),
    }),
    { error: "Sections must be a list" },
  )
  .nullish()
  .transform((sections) =>
    (sections ?? [])
      .filter((s) => !isBlank(s.name) && !isBlank(s.percentile))
      .map((s) => ({
        name: (s.name ?? "").trim(),
        percentile: wholeNumberInput(s.percentile, undefined),
      })),
  )
  .pipe(
    z
      .array(
        z.object({
          name: z
            .string()
            .max(LIMITS.SECTION_NAME, maxLengthMessage("Section name", LIMITS.SECTION_NAME)),
          percentile: percentileNumber(() => PRITE_SCORE_MESSAGES.PERCENTILE),
        }),
      )
      .max(LIMITS.SECTIONS, `At most ${LIMITS.SECTIONS} additional sections are allowed`),
  );

/** Body of POST and PUT /users/prite-scores (docs/product/data.md, validation.md and rest-api.md). */
export const ZPriteScoreInput = z.object({
  year: ZScoreYear,
  overallPercentile: ZRequiredPercentile,
  psychiatryPercentile: ZOptionalPercentile,
  neurosciencePercentile: ZOptionalPercentile,
  somaPercentile: ZOptionalPercentile,
  growthPercentile: ZOptionalPercentile,
  sections: ZSections,
  notes: z
    .string({ error: "Notes must be text" })
    .nullish()
    .transform((v) => (v ?? "").trim())
    .pipe(z.string().max(LIMITS.NOTES, maxLengthMessage("Notes", LIMITS.NOTES))),
});
export type TPriteScoreInput = z.output<typeof ZPriteScoreInput>;
export type TPriteScorePayload = z.input<typeof ZPriteScoreInput>;
