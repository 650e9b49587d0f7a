import { z } from '@hono/zod-openapi'
import {
  deleteAccount,
  logIn,
  logOut,
  requestPasswordReset,
  resetPassword,
  sendVerificationEmail,
  verifyEmail,
} from '@tutoring/domain/accounts'
import { authApi, currentUser, signatureQuery, signedUrl } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { problems } from '../platform/problem'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, jsonRequest, mount, problemContent, type App } from '../platform/routes'
import { authThrottle, emailInJsonBody } from '../platform/throttle'
import type { Services } from '@tutoring/adapters'
import {
  ForgotBody,
  LoginBody,
  ResetBody,
  SessionSchema,
  StatusSchema,
  UserSchema,
  presentSession,
  presentUser,
} from './accounts.schemas'
import { loginFormPage, resetPasswordPage } from './accounts.pages'

const tags = ['Accounts']
const noContent = { 204: { description: 'Done' } }

export function accountRoutes(app: App, services: Services): void {
  const deps = services.accounts
  const strict = authThrottle(services.throttles.auth, emailInJsonBody)

  mount(
    app,
    ['/api/auth/login', '/api/v1/auth/login'],
    {
      method: 'post',
      tags,
      summary: 'Log in with email and password; answers a session',
      middleware: [strict, jsonBody] as const,
      request: jsonRequest(LoginBody),
      responses: {
        200: jsonContent(SessionSchema, 'Logged in'),
        401: problemContent('invalid_credentials: unknown email or wrong password'),
        422: commonProblems[422],
        429: commonProblems[429],
      },
    },
    async (c) => c.json(presentSession(await unwrap(logIn(deps, c.req.valid('json')))), 200),
  )

  mount(
    app,
    ['/api/v1/auth/login'],
    {
      method: 'get',
      tags,
      summary: 'A plain HTML login form (legacy)',
      responses: { 200: { content: { 'text/html': { schema: z.string() } }, description: 'Login form' } },
    },
    (c) => c.html(loginFormPage(), 200),
  )

  mount(
    app,
    ['/api/auth/logout', '/api/v1/auth/logout'],
    {
      method: 'post',
      tags,
      summary: 'End this session: the token stops working at once',
      security: bearer,
      middleware: [authApi] as const,
      responses: { ...noContent, 401: commonProblems[401] },
    },
    async (c) => {
      await unwrap(logOut(deps, c.get('bearerToken')!))
      return c.body(null, 204)
    },
  )

  mount(
    app,
    ['/api/auth/forgot', '/api/v1/auth/forgot'],
    {
      method: 'post',
      tags,
      summary: 'Email a password reset link (valid 6 minutes); 202 whether or not the email exists',
      middleware: [strict, jsonBody] as const,
      request: jsonRequest(ForgotBody),
      responses: { 202: jsonContent(StatusSchema, 'Accepted'), 422: commonProblems[422], 429: commonProblems[429] },
    },
    async (c) => {
      await unwrap(requestPasswordReset(deps, c.req.valid('json').email))
      return c.json({ data: { status: 'accepted', message: 'If the email is registered, a reset link is on its way.' } }, 202)
    },
  )

  mount(
    app,
    ['/api/auth/reset'],
    {
      method: 'post',
      tags,
      summary: 'Complete a password reset with the emailed token; ends every session',
      middleware: [strict, jsonBody] as const,
      request: jsonRequest(ResetBody),
      responses: { 200: jsonContent(StatusSchema, 'Password changed'), 422: commonProblems[422], 429: commonProblems[429] },
    },
    async (c) => {
      await unwrap(resetPassword(deps, c.req.valid('json')))
      return c.json({ data: { status: 'password_reset', message: 'Your password has been changed. Log in again.' } }, 200)
    },
  )

  mount(
    app,
    ['/api/auth'],
    {
      method: 'delete',
      tags,
      summary: 'Delete the account (soft delete); every token stops working',
      security: bearer,
      middleware: [authApi] as const,
      responses: { ...noContent, 401: commonProblems[401] },
    },
    async (c) => {
      await unwrap(deleteAccount(deps, currentUser(c)))
      return c.body(null, 204)
    },
  )

  mount(
    app,
    ['/api/v1/auth/email/verify/resend'],
    {
      method: 'get',
      tags,
      summary: 'Send the email verification link again (throttled)',
      security: bearer,
      middleware: [authApi, authThrottle(services.throttles.auth, async (c) => c.get('user')?.email)] as const,
      responses: { 202: jsonContent(StatusSchema, 'Queued or already verified'), 401: commonProblems[401], 429: commonProblems[429] },
    },
    async (c) => {
      const outcome = await unwrap(sendVerificationEmail(deps, currentUser(c)))
      const message = outcome === 'queued' ? 'A verification link is on its way.' : 'Your email is already verified.'
      return c.json({ data: { status: outcome, message } }, 202)
    },
  )

  mount(
    app,
    ['/api/v1/auth/email/verify/{id}'],
    {
      method: 'get',
      tags,
      summary: 'The emailed verification link (signed)',
      request: { params: z.object({ id: z.coerce.number().int().positive() }), query: signatureQuery },
      middleware: [signedUrl(services)] as const,
      responses: { 200: jsonContent(z.object({ data: UserSchema }), 'Verified'), 403: problemContent('invalid_signature') },
    },
    async (c) => c.json({ data: presentUser(await unwrap(verifyEmail(deps, c.req.valid('param').id))) }, 200),
  )

  app.get('/password/reset', (c) => {
    const token = c.req.query('token')
    const email = c.req.query('email')
    if (!token || !email) throw problems.notFound()
    return c.html(resetPasswordPage(email, token))
  })
}
