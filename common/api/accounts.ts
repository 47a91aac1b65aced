import { z } from 'zod';
import { messages, emailSchema, nameSchema, passwordSchema } from '../validation.ts';
import { defineCall } from './define.ts';
import { userData } from './entities.ts';
import { timeZone } from './inputs.ts';

const none = z.strictObject({});
const requiredEmail = z.string().trim().min(1, messages.emailRequired).max(200, messages.emailTooLong);
const requiredPassword = z.string().min(1, messages.passwordRequired).max(1024);

export const signup = defineCall({
  path: '/api/signup',
  method: 'POST',
  access: 'public',
  mutates: true,
  // Our addition (docs/decisions/0587): timeZone, the Owner's browser zone, becomes the organisation's.
  request: z.strictObject({
    orgname: nameSchema,
    email: emailSchema,
    password: passwordSchema,
    timeZone: timeZone.optional(),
  }),
  response: z.object({ email: z.string() }),
  failMsg: 'There was an error with your request. Please try again.',
});

/** Our addition (docs/product-decisions.md): the /verify page confirms the emailed token. */
export const verifyEmail = defineCall({
  path: '/api/verify-email',
  method: 'POST',
  access: 'public',
  mutates: true,
  request: z.strictObject({ token: z.string().min(1).max(200) }),
  response: z.object({ orgName: z.string(), redirectURL: z.string() }),
  failMsg: 'Unable to verify your email address. Please try again later.',
});

/** Our addition: an unverified account asks for its verification email again. */
export const resendVerification = defineCall({
  path: '/api/resend-verification',
  method: 'POST',
  access: 'public',
  mutates: true,
  request: z.strictObject({ username: requiredEmail }),
  response: z.object({}),
  failMsg: 'Unable to get response from server. Please try again later.',
});

export const login = defineCall({
  path: '/api/login',
  method: 'POST',
  access: 'public',
  mutates: true,
  idempotent: false,
  atomic: false,
  request: z.strictObject({
    username: requiredEmail,
    password: requiredPassword,
    /** The organisation of /q/{org}/login: an account of another organisation is refused. */
    orgName: z.string().max(200).optional(),
  }),
  response: z.object({ orgName: z.string(), redirectURL: z.string().nullable() }),
  failMsg: 'Unable to login. Please try again later.',
});

export const logout = defineCall({
  path: '/api/logout',
  method: 'POST',
  access: 'public',
  mutates: true,
  idempotent: false,
  request: none,
  response: z.object({ error: z.string().nullable(), redirectURL: z.string() }),
  failMsg: 'Unable to get response from server. Please try again later.',
});

export const refreshToken = defineCall({
  path: '/api/refresh-token',
  method: 'POST',
  access: 'public',
  mutates: true,
  idempotent: false,
  request: none,
  response: z.object({ isAuthorized: z.boolean() }),
  failMsg: 'Unable to reach server. Refresh or log in if the problem persists.',
});

export const getUserData = defineCall({
  path: '/api/user-data',
  method: 'POST',
  access: 'member',
  mutates: false,
  whenUnpaid: true,
  request: none,
  response: userData,
  failMsg: 'Unable to get user information from server.',
});

export const requestPasswordReset = defineCall({
  path: '/api/request-password-reset',
  method: 'POST',
  access: 'public',
  mutates: true,
  request: z.strictObject({ username: requiredEmail }),
  response: z.object({}),
  failMsg: 'Could not reset password. Please try again later.',
});

export const resetPassword = defineCall({
  path: '/api/reset-password',
  method: 'POST',
  access: 'public',
  mutates: true,
  request: z
    .strictObject({
      username: requiredEmail,
      password1: passwordSchema,
      password2: z.string(),
      token: z.string().min(1).max(200),
    })
    .refine((r) => r.password1 === r.password2, {
      message: messages.passwordsDoNotMatch,
      path: ['password2'],
    }),
  response: z.object({ redirectURL: z.string() }),
  failMsg: 'Could not reset password. Please try again later.',
});
