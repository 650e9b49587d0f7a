import { z } from '@hono/zod-openapi'
import { addBankAccount, deleteBankAccount, linkBankAccount, listBankAccounts, updateBankAccount } from '@tutoring/domain/payments'
import { authApi, currentUser, internalOnly } from '../platform/auth'
import { jsonBody } from '../platform/json-body'
import { listOf, paginate, paginationQuery } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, problemContent, processorProblems, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { BankAccountBody, BankAccountLinkBody, BankAccountSchema, BankAccountUpdateBody, idParam, presentBankAccount } from './payments.schemas'

const tags = ['Bank accounts']
const OWNERSHIP = "A bank account is its tutor's alone: anyone else's (internal staff included), or a deleted one, is 404."
const Envelope = z.object({ data: BankAccountSchema })

export function bankAccountRoutes(app: App, services: Services): void {
  const deps = services.payments

  mount(
    app,
    ['/api/bank-accounts'],
    {
      method: 'get',
      tags,
      summary: "The tutor's payout bank accounts",
      description: 'Tutors only (students, parents and internal staff: 403). Live accounts, the default first. Only the last four digits of a number are ever shown or kept. Paginated like every list (CONTRACT §17).',
      security: bearer,
      middleware: [authApi] as const,
      request: { query: z.strictObject(paginationQuery) },
      responses: { 200: jsonContent(listOf(BankAccountSchema), 'Bank accounts'), ...commonProblems },
    },
    async (c) => {
      const accounts = await unwrap(listBankAccounts(deps, currentUser(c)))
      return c.json(paginate(accounts.map(presentBankAccount), c.req.valid('query')), 200)
    },
  )

  mount(
    app,
    ['/api/bank-accounts'],
    {
      method: 'post',
      tags,
      summary: 'Add a payout bank account (tutors)',
      description: [
        'Body `{account_holder_name, sort_code ("12-34-56" or six digits), account_number (eight digits)}`. The details go to',
        'the processor for a single-use token and only the last four digits are kept. Details the processor refuses: 422 with',
        '`errors.sort_code` or `errors.account_number`. The first account is the default. 201, not yet linked: staff link it',
        'with `POST /api/bank-accounts/link`. Students, parents and internal staff: 403.',
      ].join(' '),
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { body: { content: { 'application/json': { schema: BankAccountBody } }, required: true } },
      responses: { ...processorProblems, 201: jsonContent(Envelope, 'Added'), 400: problemContent('malformed_request'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const account = await unwrap(
        addBankAccount(deps, currentUser(c), { accountHolderName: body.account_holder_name, sortCode: body.sort_code, accountNumber: body.account_number }),
      )
      return c.json({ data: presentBankAccount(account) }, 201)
    },
  )

  mount(
    app,
    ['/api/bank-accounts/link'],
    {
      method: 'post',
      tags,
      summary: "Link a tutor's bank account to their connected payout account (internal)",
      description: [
        "Body `{bank_account_id}`. Adds the account to the tutor's connected account at the processor (made with the tutor's",
        'first link) as the default for payouts, and answers it with `linked: true`. Linking an account already linked',
        'answers it unchanged (200). Unknown or deleted account: 404. Not internal: 403.',
      ].join(' '),
      security: bearer,
      middleware: [authApi, internalOnly, jsonBody] as const,
      request: { body: { content: { 'application/json': { schema: BankAccountLinkBody } }, required: true } },
      responses: { ...processorProblems, 200: jsonContent(Envelope, 'Linked'), 400: problemContent('malformed_request'), ...commonProblems },
    },
    async (c) => {
      const account = await unwrap(linkBankAccount(deps, currentUser(c), c.req.valid('json').bank_account_id))
      return c.json({ data: presentBankAccount(account) }, 200)
    },
  )

  mount(
    app,
    ['/api/bank-accounts/{id}'],
    {
      method: 'put',
      tags,
      summary: 'Rename a bank account or make it the default',
      description: `Body with \`account_holder_name\` and/or \`is_default: true\` (at least one). Sort code and number do not change: add a new account instead. ${OWNERSHIP}`,
      security: bearer,
      middleware: [authApi, jsonBody] as const,
      request: { params: idParam, body: { content: { 'application/json': { schema: BankAccountUpdateBody } }, required: true } },
      responses: { ...processorProblems, 200: jsonContent(Envelope, 'Updated'), 400: problemContent('malformed_request'), ...commonProblems },
    },
    async (c) => {
      const body = c.req.valid('json')
      const account = await unwrap(
        updateBankAccount(deps, currentUser(c), { id: c.req.valid('param').id, accountHolderName: body.account_holder_name, makeDefault: body.is_default }),
      )
      return c.json({ data: presentBankAccount(account) }, 200)
    },
  )

  mount(
    app,
    ['/api/bank-accounts/{id}'],
    {
      method: 'delete',
      tags,
      summary: 'Remove a bank account (soft delete)',
      description: `204. A deleted default passes the default to the most recently added remaining account. A linked account stays on the processor's connected account for staff to remove there. ${OWNERSHIP}`,
      security: bearer,
      middleware: [authApi] as const,
      request: { params: idParam },
      responses: { ...processorProblems, 204: { description: 'Removed' }, ...commonProblems },
    },
    async (c) => {
      await unwrap(deleteBankAccount(deps, currentUser(c), c.req.valid('param').id))
      return c.body(null, 204)
    },
  )
}
