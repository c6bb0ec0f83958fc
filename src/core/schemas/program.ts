import { z } from "zod";
import { LIMITS } from "../constants";
import { ZJoinCode } from "./exam";

/** Residency programs (issue 32, docs/product/programs.md): what every surface sends. */
export const PROGRAM_LIMITS = {
  NAME_MAX: 120,
  INACTIVE_DAYS_MIN: 1,
  INACTIVE_DAYS_MAX: 365,
} as const;

export const PROGRAM_ROLES = ["director", "resident"] as const;
export type ProgramRole = (typeof PROGRAM_ROLES)[number];

export const PROGRAM_MESSAGES = {
  NAME: "Please enter the program's name",
  NAME_LONG: `The program's name can be at most ${PROGRAM_LIMITS.NAME_MAX} characters`,
  INSTITUTION_LONG: `The institution can be at most ${LIMITS.INSTITUTION} characters`,
  PROGRAM_ID: "Program id must be a valid id",
  USER_ID: "Member id must be a valid id",
  ROLE: "Role must be director or resident",
  INACTIVE_DAYS: `Inactive days must be a whole number from ${PROGRAM_LIMITS.INACTIVE_DAYS_MIN} to ${PROGRAM_LIMITS.INACTIVE_DAYS_MAX}`,
  ACCURACY_FLAG: "The accuracy flag must be a percentage from 0 to 100",
} as const;

const ZProgramName = z
  .string({ error: PROGRAM_MESSAGES.NAME })
  .trim()
  .min(1, PROGRAM_MESSAGES.NAME)
  .max(PROGRAM_LIMITS.NAME_MAX, PROGRAM_MESSAGES.NAME_LONG);
const ZInstitution = z
  .string({ error: PROGRAM_MESSAGES.INSTITUTION_LONG })
  .trim()
  .max(LIMITS.INSTITUTION, PROGRAM_MESSAGES.INSTITUTION_LONG);

export const ZProgramId = z.uuid({ error: PROGRAM_MESSAGES.PROGRAM_ID });
export const ZProgramIdInput = z.object({ id: ZProgramId });

export const ZProgramCreate = z.object({
  name: ZProgramName,
  institution: ZInstitution.default(""),
});
export type TProgramCreate = z.input<typeof ZProgramCreate>;

export const ZProgramCodeInput = z.object({ code: ZJoinCode });

export const ZProgramMemberInput = z.object({
  id: ZProgramId,
  userId: z.uuid({ error: PROGRAM_MESSAGES.USER_ID }),
});

export const ZProgramSetRole = ZProgramMemberInput.extend({
  role: z.enum(PROGRAM_ROLES, { error: PROGRAM_MESSAGES.ROLE }),
});

export const ZProgramUpdate = z.object({
  id: ZProgramId,
  name: ZProgramName.optional(),
  institution: ZInstitution.optional(),
  inactiveDays: z
    .number({ error: PROGRAM_MESSAGES.INACTIVE_DAYS })
    .int(PROGRAM_MESSAGES.INACTIVE_DAYS)
    .min(PROGRAM_LIMITS.INACTIVE_DAYS_MIN, PROGRAM_MESSAGES.INACTIVE_DAYS)
    .max(PROGRAM_LIMITS.INACTIVE_DAYS_MAX, PROGRAM_MESSAGES.INACTIVE_DAYS)
    .optional(),
  /** A fraction, 0-1 (0.6 = flag residents below 60%). */
  accuracyFlag: z
    .number({ error: PROGRAM_MESSAGES.ACCURACY_FLAG })
    .min(0, PROGRAM_MESSAGES.ACCURACY_FLAG)
    .max(1, PROGRAM_MESSAGES.ACCURACY_FLAG)
    .optional(),
});
