import { z } from "zod";
import { LIMITS, PGY_LEVEL_VALUES, SPECIALTIES } from "../constants";
import { maxLengthMessage } from "./common";

export const AUTH_MESSAGES = {
  REGISTER_REQUIRED: "Please enter all required fields",
  LOGIN_REQUIRED: "Please enter all fields",
  USERNAME_SHORT: `Username must be at least ${LIMITS.USERNAME_MIN} characters`,
  USERNAME_LONG: maxLengthMessage("Username", LIMITS.USERNAME_MAX),
  USERNAME_CHARS: "Username may contain only letters, digits, dots, dashes and underscores",
  EMAIL: "Please enter a valid email address",
  PASSWORD_SHORT: `Password must be at least ${LIMITS.PASSWORD_MIN} characters`,
  PASSWORD_LONG: maxLengthMessage("Password", LIMITS.PASSWORD_MAX),
  PASSWORDS_DIFFER: "Passwords do not match",
  PGY: "Please select a PGY level",
  SPECIALTY: "Please select a specialty from the list",
  CURRENT_PASSWORD: "Please enter your current password",
  LOGIN_FAILED: "Invalid username or password",
} as const;

const REQUIRED = AUTH_MESSAGES.REGISTER_REQUIRED;

const ZEmail = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(LIMITS.EMAIL, AUTH_MESSAGES.EMAIL)
  .pipe(z.email(AUTH_MESSAGES.EMAIL));

/** A new password; the length limit keeps hashing cost bounded. */
const ZNewPassword = z
  .string({ error: REQUIRED })
  .min(1, REQUIRED)
  .min(LIMITS.PASSWORD_MIN, AUTH_MESSAGES.PASSWORD_SHORT)
  .max(LIMITS.PASSWORD_MAX, AUTH_MESSAGES.PASSWORD_LONG);

/** POST /auth/register (docs/product/validation.md Register). The confirmation is checked only when sent. */
export const ZRegisterInput = z
  .object({
    username: z
      .string({ error: REQUIRED })
      .trim()
      .min(1, REQUIRED)
      .min(LIMITS.USERNAME_MIN, AUTH_MESSAGES.USERNAME_SHORT)
      .max(LIMITS.USERNAME_MAX, AUTH_MESSAGES.USERNAME_LONG)
      .regex(/^[A-Za-z0-9._-]+$/, AUTH_MESSAGES.USERNAME_CHARS),
    email: ZEmail,
    password: ZNewPassword,
    confirmPassword: z.string().optional(),
    pgyLevel: z
      .string({ error: REQUIRED })
      .trim()
      .min(1, REQUIRED)
      .pipe(z.enum(PGY_LEVEL_VALUES, { error: AUTH_MESSAGES.PGY })),
  })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.password, {
    message: AUTH_MESSAGES.PASSWORDS_DIFFER,
    path: ["confirmPassword"],
  });
export type TRegisterInput = z.output<typeof ZRegisterInput>;

const LOGIN_REQUIRED = AUTH_MESSAGES.LOGIN_REQUIRED;

/** POST /auth/login. No format rules here: a wrong username must read like a wrong password. */
export const ZLoginInput = z.object({
  username: z
    .string({ error: LOGIN_REQUIRED })
    .trim()
    .min(1, LOGIN_REQUIRED)
    .max(LIMITS.PASSWORD_MAX, AUTH_MESSAGES.LOGIN_FAILED),
  password: z
    .string({ error: LOGIN_REQUIRED })
    .min(1, LOGIN_REQUIRED)
    .max(LIMITS.PASSWORD_MAX, AUTH_MESSAGES.PASSWORD_LONG),
});
export type TLoginInput = z.output<typeof ZLoginInput>;

/** null clears the field like '' does; undefined (absent) leaves it unchanged. */
const clearIfNull = <T>(v: T | null | undefined): T | "" | undefined => (v === null ? "" : v);

/**
 * PUT /users/profile. Every field is optional: absent means unchanged. The username the form also sends
 * is dropped, since it can never change (docs/product/screens.md). '' clears PGY level, specialty and the free texts.
 */
export const ZProfileInput = z.object({
  email: ZEmail.optional(),
  displayName: z
    .string({ error: "Display name must be text" })
    .trim()
    .max(LIMITS.DISPLAY_NAME, maxLengthMessage("Display name", LIMITS.DISPLAY_NAME))
    .nullish()
    .transform(clearIfNull),
  pgyLevel: z
    .union([z.literal(""), z.enum(PGY_LEVEL_VALUES)], { error: AUTH_MESSAGES.PGY })
    .nullish()
    .transform(clearIfNull),
  specialty: z
    .union([z.literal(""), z.enum(SPECIALTIES)], { error: AUTH_MESSAGES.SPECIALTY })
    .nullish()
    .transform(clearIfNull),
  institution: z
    .string({ error: "Institution must be text" })
    .trim()
    .max(LIMITS.INSTITUTION, maxLengthMessage("Institution", LIMITS.INSTITUTION))
    .nullish()
    .transform(clearIfNull),
});
export type TProfileInput = z.output<typeof ZProfileInput>;

/** PUT /users/settings: the form always sends both privacy toggles. */
export const ZSettingsInput = z.object({
  settings: z.object(
    {
      shareUsageData: z.boolean({ error: "shareUsageData must be true or false" }),
      publicProfile: z.boolean({ error: "publicProfile must be true or false" }),
    },
    { error: "settings are required" },
  ),
});
export type TSettingsInput = z.output<typeof ZSettingsInput>;

export const ZChangePasswordInput = z
  .object({
    currentPassword: z
      .string({ error: AUTH_MESSAGES.CURRENT_PASSWORD })
      .min(1, AUTH_MESSAGES.CURRENT_PASSWORD)
      .max(LIMITS.PASSWORD_MAX, AUTH_MESSAGES.PASSWORD_LONG),
    newPassword: z
      .string({ error: AUTH_MESSAGES.PASSWORD_SHORT })
      .min(LIMITS.PASSWORD_MIN, AUTH_MESSAGES.PASSWORD_SHORT)
      .max(LIMITS.PASSWORD_MAX, AUTH_MESSAGES.PASSWORD_LONG),
    confirmPassword: z.string().optional(),
  })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.newPassword, {
    message: AUTH_MESSAGES.PASSWORDS_DIFFER,
    path: ["confirmPassword"],
  });
export type TChangePasswordInput = z.output<typeof ZChangePasswordInput>;

/** POST /auth/forgot-password (issue 33): the account's email. */
export const ZForgotPasswordInput = z.object({ email: ZEmail });
export type TForgotPasswordInput = z.output<typeof ZForgotPasswordInput>;

/** The one message for a reset link that was used, has expired or never existed. */
export const RESET_LINK_INVALID = "This reset link is invalid or has expired.";

/** POST /auth/reset-password: the link's token and a new password, by registration's rules. */
export const ZResetPasswordInput = z
  .object({
    token: z.string({ error: RESET_LINK_INVALID }).trim().min(1, RESET_LINK_INVALID).max(128),
    password: ZNewPassword,
    confirmPassword: z.string().optional(),
  })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.password, {
    message: AUTH_MESSAGES.PASSWORDS_DIFFER,
    path: ["confirmPassword"],
  });
export type TResetPasswordInput = z.output<typeof ZResetPasswordInput>;
