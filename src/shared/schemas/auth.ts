import { z } from 'zod';
import { LIMITS } from '../constants';

/** Sign-in form (SPEC 5): the server applies the same rules before checking anything. */
export const loginSchema = z.object({
  username: z
    .string()
    .trim()
    .min(LIMITS.loginMin, 'Username or email must be at least 3 characters.')
    .max(254, 'Username or email is too long.'),
  password: z
    .string()
    .min(LIMITS.passwordMinSignIn, 'Password must be at least 6 characters.')
    .max(LIMITS.passwordMax, 'Password is too long.'),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** A six-digit code as the code fields take it (input stripped to digits). */
const sixDigitCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Verification code must be 6 digits.');

/**
 * The second sign-in step: six digits (e-mailed or from the authenticator app), or one of the
 * account's recovery codes (`xxxxx-xxxxx`).
 */
export const verifyCodeSchema = z.object({
  username: z.string().trim().min(1).max(254),
  token: z
    .string()
    .trim()
    .regex(/^\d{6}$|^[A-Za-z0-9-]{10,20}$/, 'Verification code must be 6 digits.'),
});

/** New passwords: 8 to 128 characters (ASVS level 2; the spec's 6 is below it, see README). */
export const newPasswordSchema = z
  .string()
  .min(LIMITS.passwordMin, `New password must be at least ${LIMITS.passwordMin} characters`)
  .max(LIMITS.passwordMax, `New password must be at most ${LIMITS.passwordMax} characters`);

const currentPassword = z.string().min(1, 'Current password is required').max(LIMITS.passwordMax);
const confirmPassword = z.string().min(1, 'Password confirmation is required').max(LIMITS.passwordMax);
const passwordsMatch = {
  check: (v: { newPassword: string; confirmPassword?: string }) => v.confirmPassword === undefined || v.confirmPassword === v.newPassword,
  params: { message: "Passwords don't match", path: ['confirmPassword'] },
};

/** POST /api/user/change-password (the confirmation is optional on the wire). */
export const changePasswordSchema = z
  .object({ currentPassword, newPassword: newPasswordSchema, confirmPassword: confirmPassword.optional() })
  .refine(passwordsMatch.check, passwordsMatch.params);
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** The Change Password card: the same rules with the confirmation required. */
export const changePasswordFormSchema = z
  .object({ currentPassword, newPassword: newPasswordSchema, confirmPassword })
  .refine(passwordsMatch.check, passwordsMatch.params);
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;

/** POST /api/auth/2fa/enable: the secret from setup and a code from the app. */
export const twoFactorEnableSchema = z.object({
  secret: z.string().trim().min(16).max(128),
  token: sixDigitCodeSchema,
});

/** POST /api/auth/2fa/disable: the current password and an authenticator (or recovery) code. */
export const twoFactorDisableSchema = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(LIMITS.passwordMax),
  token: z
    .string()
    .trim()
    .regex(/^\d{6}$|^[A-Za-z0-9-]{10,20}$/, 'Verification code must be 6 digits.'),
});

/** POST /api/register (only when ALLOW_REGISTRATION=true). */
export const registerSchema = z.object({
  username: z
    .string()
    .trim()
    .min(LIMITS.loginMin, 'Username must be at least 3 characters.')
    .max(64, 'Username is too long.')
    .regex(/^[A-Za-z0-9_.]+$/, 'Username may contain only letters, numbers, dots and underscores.'),
  email: z.string().trim().check(z.email('Please enter a valid email address')).max(254),
  password: newPasswordSchema,
  name: z.string().trim().min(1).max(200).optional(),
});

/** 'Forgot password?': the account's e-mail address. */
export const forgotPasswordSchema = z.object({
  email: z.string().trim().check(z.email('Please enter a valid email address')).max(254, 'Email address is too long.'),
});
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** The reset page's form: the password change's rules for the new password, confirmation required. */
export const resetPasswordFormSchema = z
  .object({ newPassword: newPasswordSchema, confirmPassword })
  .refine(passwordsMatch.check, passwordsMatch.params);
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

/** POST /api/auth/reset-password: the link's token (43 characters, base64url) and the form. */
export const resetPasswordSchema = z
  .object({
    token: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'This password reset link is not complete. Open the link from the e-mail again.'),
    newPassword: newPasswordSchema,
    confirmPassword: confirmPassword.optional(),
  })
  .refine(passwordsMatch.check, passwordsMatch.params);
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** The sign-in page's link step: the password of the account a provider sign-in would be linked to. */
export const providerLinkSchema = z.object({ password: loginSchema.shape.password });
export type ProviderLinkInput = z.infer<typeof providerLinkSchema>;
