import {
  AccountEnvelope,
  ConfirmationSent,
  EmailRequest,
  SignupMode,
  SignupRequest,
  type SignupService,
  VerificationSent,
  VerifyRequest,
  WaitlistConfirmed,
} from '@svc/domain';
import { z } from 'zod';
import { type AnyRoute, defineRoute } from './route-definition.js';

/** Signup, verification and the waitlist (spec 4.8, ROUTES.md "Sign-in and account"). */
export function signupRoutes(
  signup: SignupService,
  credentialsEnded: (accountId: string) => void,
): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/auth/signup-mode',
      operationId: 'getSignupMode',
      summary: 'Public signup mode',
      tags: ['auth'],
      auth: 'none',
      responses: { 200: { description: 'The mode and whether a waitlist is offered.', schema: SignupMode } },
      handler: async () => ({ status: 200, body: signup.mode() }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/signup',
      operationId: 'signup',
      summary: 'Sign up with email and password',
      description:
        'Answers 202 `verification_sent` whether or not the address is registered: a new address gets a verification link, a registered one an account-exists notice (at most one a minute).',
      tags: ['auth'],
      auth: 'none',
      request: { body: SignupRequest },
      errorStatuses: [403],
      responses: { 202: { description: 'Verification email queued.', schema: VerificationSent } },
      handler: async ({ body }) => {
        await signup.signup(body);
        return { status: 202, body: { status: 'verification_sent' } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/verify',
      operationId: 'verifyEmail',
      summary: 'Verify an email address with the emailed token',
      description:
        'Until its address is verified an account may sign in, read itself, ask for a new link and sign out, but creates no API token, passkey, TOTP or node (403 email_unverified). The first verification ends every session, API token and second factor made before it: sign in again.',
      tags: ['auth'],
      auth: 'none',
      request: { body: VerifyRequest },
      responses: { 200: { description: 'The verified account.', schema: AccountEnvelope } },
      handler: async ({ body }) => {
        const account = await signup.verify(body.token);
        // The first verification revokes the account's API tokens, which this server may have cached.
        credentialsEnded(account.id);
        return { status: 200, body: { account } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/resend-verification',
      operationId: 'resendVerification',
      summary: 'Send a new verification link',
      tags: ['auth'],
      auth: 'none',
      request: { body: EmailRequest },
      responses: {
        202: { description: 'Always, whether or not the address is registered.', schema: VerificationSent },
      },
      handler: async ({ body }) => {
        await signup.resendVerification(body.email);
        return { status: 202, body: { status: 'verification_sent' } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/waitlist',
      operationId: 'joinWaitlist',
      summary: 'Join the waitlist (sends a confirmation email)',
      tags: ['auth'],
      auth: 'none',
      request: { body: EmailRequest },
      errorStatuses: [503],
      responses: { 202: { description: 'Same answer whether known or not.', schema: ConfirmationSent } },
      handler: async ({ body }) => {
        await signup.joinWaitlist(body.email);
        return { status: 202, body: { status: 'confirmation_sent' } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/waitlist/confirm',
      operationId: 'confirmWaitlist',
      summary: 'Confirm a waitlist address',
      tags: ['auth'],
      auth: 'none',
      request: { query: z.object({ token: z.string().min(1).max(200) }) },
      errorStatuses: [400],
      responses: { 200: { description: 'The address is confirmed.', schema: WaitlistConfirmed } },
      handler: async ({ query }) => ({
        status: 200,
        body: { status: 'confirmed', email: await signup.confirmWaitlist(query.token) },
      }),
    }),
  ];
}
