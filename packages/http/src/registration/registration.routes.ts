import { registerUser } from '@tutoring/domain/registration'
import type { Services } from '@tutoring/adapters'
import { jsonBody } from '../platform/json-body'
import { unwrap } from '../platform/respond'
import { commonProblems, jsonContent, jsonRequest, mount, problemContent, processorProblems, type App } from '../platform/routes'
import { SessionSchema, presentSession } from '../accounts'
import { RegisterBody } from './registration.schemas'

const tags = ['Accounts']

export function registrationRoutes(app: App, services: Services): void {
  const deps = services.accounts

  mount(
    app,
    ['/api/auth/register', '/api/v1/auth/register'],
    {
      method: 'post',
      tags,
      summary: 'Register a student, parent or tutor; answers a session',
      middleware: [jsonBody] as const,
      request: jsonRequest(RegisterBody),
      responses: { ...processorProblems, 201: jsonContent(SessionSchema, 'Registered'), 400: problemContent('Malformed'), 422: commonProblems[422] },
    },
    async (c) => {
      const body = c.req.valid('json')
      const session = await unwrap(
        registerUser(deps, {
          email: body.email,
          password: body.password,
          firstname: body.firstname,
          lastname: body.lastname,
          role: body.role,
          country: body.country,
          dateOfBirth: body.date_of_birth ?? undefined,
          profilePicture: body.profile_picture ?? undefined,
          address: body.address ?? undefined,
          mobile: body.mobile ?? undefined,
          dbs: body.dbs ? { certificateNumber: body.dbs.certificate_number, issueDate: body.dbs.issue_date } : undefined,
          card: body.card ? { paymentMethod: body.card.payment_method } : undefined,
        }),
      )
      return c.json(presentSession(session), 201)
    },
  )
}
