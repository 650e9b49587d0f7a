import { z } from '@hono/zod-openapi'
import {
  recordProviderResult,
  reviewVerification,
  startIdentityCheck,
  submitVerificationDocument,
  type DocumentKind,
  type VerificationDocumentDeps,
} from '@tutoring/domain/verification'
import { authApi, currentUser, internalOnly } from '../platform/auth'
import { presentWebhookOutcome, WebhookAnswer } from '../platform/webhook-answer'
import { jsonBody } from '../platform/json-body'
import { receiveUploadFor } from '../platform/multipart'
import { unwrap } from '../platform/respond'
import { bearer, commonProblems, jsonContent, mount, problemContent, type App } from '../platform/routes'
import { webhookToken } from '../platform/webhook-token'
import type { Services } from '@tutoring/adapters'
import { multipartBody } from '../files'
import {
  DbsUploadFields,
  QualificationUploadFields,
  ReviewBody,
  ReviewParams,
  VerificationEnvelope,
  VerificationEventBody,
  presentVerification,
  toProviderEvent,
} from './verification.schemas'

const tags = ['Verification']
export const VERIFICATION_TOKEN_HEADER = 'X-Webhook-Token'

export function verificationRoutes(app: App, services: Services): void {
  const deps = services.verification

  mount(
    app,
    ['/api/v1/verification/identity'],
    {
      method: 'post',
      tags,
      summary: 'Start an identity check with the provider (tutors only)',
      description: [
        'Opens a check at the identity provider and answers its `reference`, status `PENDING` and the',
        "provider's hosted page in `redirect_url` (null with the offline provider). 201 when a check",
        'was opened: the first time, or again after a FAIL (with a new reference). While a check is',
        'PENDING the same check is answered again with 200 (same reference and link), so a retry never',
        'opens a second one. After PASS or during INTERNAL_REVIEW: 409 `invalid_state_transition`.',
        'Students, parents and internal users: 403. The result arrives through `POST /api/v1/verification/status`.',
      ].join(' '),
      security: bearer,
      middleware: [authApi] as const,
      responses: {
        200: jsonContent(VerificationEnvelope, 'The pending check, answered again'),
        201: jsonContent(VerificationEnvelope, 'A check was opened'),
        401: commonProblems[401],
        403: commonProblems[403],
        409: problemContent('invalid_state_transition: already passed or under review'),
        429: commonProblems[429],
      },
    },
    async (c) => {
      const started = await unwrap(startIdentityCheck(deps, currentUser(c)))
      return c.json({ data: presentVerification(started.record) }, started.created ? 201 : 200)
    },
  )

  documentRoutes(app, services)

  mount(
    app,
    ['/api/v1/verification/status'],
    {
      method: 'post',
      tags,
      summary: "The identity provider's webhook: a check's result",
      description: [
        `Authenticated by the \`${VERIFICATION_TOKEN_HEADER}\` header, compared in constant time with`,
        '`VERIFICATION_WEBHOOK_TOKEN`; missing or wrong (or no token configured): 400 `invalid_signature`, nothing changes.',
        'A `check.completed` event stores PASS, FAIL or INTERNAL_REVIEW on the verification account named by',
        '`data.reference` (any kind) and queues the `tutor_id_verification_status_updated` email to the internal mailbox.',
        'Every event id is remembered: a repeat answers 200 `duplicate` and changes nothing. Other types, unknown',
        'references and results for a check that is no longer pending answer 200 `ignored`. Not JSON: 400',
        '`malformed_request`. JSON without a string `id` and `type`, or a `check.completed` without a valid',
        '`data.reference` and `data.status`: 422 `validation_failed` (not recorded, so a corrected retry is handled).',
        'Unknown extra fields are tolerated.',
      ].join(' '),
      middleware: [webhookToken(VERIFICATION_TOKEN_HEADER, services.infra.config.VERIFICATION_WEBHOOK_TOKEN), jsonBody] as const,
      request: {
        headers: z.object({ 'x-webhook-token': z.string().optional().openapi({ description: 'The shared webhook token' }) }),
        body: { content: { 'application/json': { schema: VerificationEventBody } }, required: true },
      },
      responses: {
        200: jsonContent(WebhookAnswer, 'Handled, ignored or duplicate'),
        400: problemContent('invalid_signature (token) or malformed_request (not JSON)'),
        422: commonProblems[422],
        429: commonProblems[429],
      },
    },
    async (c) => {
      const result = await unwrap(recordProviderResult(deps, toProviderEvent(c.req.valid('json'))))
      return c.json(presentWebhookOutcome(result), 200)
    },
  )

  mount(
    app,
    ['/api/tutors/{id}/verifications/{kind}'],
    {
      method: 'put',
      tags,
      summary: "Record staff's review of a tutor's DBS certificate or qualification (internal)",
      description: [
        'Body `{status: "PASS" | "FAIL"}`. A PASS needs an uploaded document: 422 `document_missing` otherwise.',
        'A FAIL may overturn an earlier PASS. `identity` is the provider\'s to decide: 422 `validation_failed`.',
        'A review the state machine has no transition for (PASS of a PASS, FAIL of a FAIL or of nothing',
        'submitted) is 409 `invalid_state_transition`. Unknown tutor (or a user who is not a tutor): 404.',
        'Not internal: 403.',
      ].join(' '),
      security: bearer,
      middleware: [authApi, internalOnly, jsonBody] as const,
      request: { params: ReviewParams, body: { content: { 'application/json': { schema: ReviewBody } }, required: true } },
      responses: {
        200: jsonContent(VerificationEnvelope, 'Recorded'),
        ...commonProblems,
        400: problemContent('malformed_request'),
        409: problemContent('invalid_state_transition'),
        422: problemContent('validation_failed or document_missing'),
      },
    },
    async (c) => {
      const { id, kind } = c.req.valid('param')
      const record = await unwrap(reviewVerification(deps, currentUser(c), { tutorId: id, kind, status: c.req.valid('json').status }))
      return c.json({ data: presentVerification(record) }, 200)
    },
  )
}

const DOCUMENT_ROUTES: Record<DocumentKind, { what: string; fields: typeof DbsUploadFields | typeof QualificationUploadFields; extra: string }> = {
  dbs: {
    what: 'DBS certificate',
    fields: DbsUploadFields,
    extra: ' Optional parts `certificate_number` (12 digits) and `issue_date` (YYYY-MM-DD, not in the future) record the certificate\'s details, as registration\'s `dbs` does.',
  },
  qualification: { what: 'qualification document', fields: QualificationUploadFields, extra: ' No other parts.' },
}

function documentRoutes(app: App, services: Services) {
  const deps: VerificationDocumentDeps = { ...services.files, secrets: services.verification.secrets, config: services.verification.config }
  for (const kind of ['dbs', 'qualification'] as const) {
    const { what, fields, extra } = DOCUMENT_ROUTES[kind]
    mount(
      app,
      [`/api/v1/verification/${kind}`],
      {
        method: 'post',
        tags,
        summary: `Upload the ${what} for review (tutors only)`,
        description: [
          `Multipart, the file in the part \`file\`: an image (JPEG, PNG, WebP) or a PDF, read from the content`,
          '(415 `unsupported_media_type` otherwise), up to 10 MiB (413 `payload_too_large`).',
          `Answers 201 with the verification: status PENDING and the new \`document_file_id\`, which staff then review`,
          'with `PUT /api/tutors/{id}/verifications/' + kind + '`. Allowed first, after a FAIL and while PENDING (the new',
          'document replaces the old one, which is deleted); after PASS or during INTERNAL_REVIEW: 409',
          '`invalid_state_transition`, and nothing is stored. Students, parents and internal users: 403.' + extra,
          `The document is served to its owner and internal staff by \`GET /api/resources/${kind}-image/{user id}\`.`,
        ].join(' '),
        security: bearer,
        middleware: [authApi] as const,
        request: {
          body: multipartBody(
            `The ${what}`,
            kind === 'dbs'
              ? { certificate_number: { type: 'string', pattern: '^\\d{12}$' }, issue_date: { type: 'string', format: 'date' } }
              : {},
          ),
        },
        responses: {
          201: jsonContent(VerificationEnvelope, 'Stored and pending review'),
          400: problemContent('malformed_request: not multipart/form-data'),
          409: problemContent('invalid_state_transition: already passed or under review'),
          413: problemContent('payload_too_large'),
          415: problemContent('unsupported_media_type'),
          ...commonProblems,
        },
      },
      async (c) => {
        const upload = await receiveUploadFor(c, services, { fields, accept: ['image', 'document'] })
        try {
          const parts = upload.fields as { certificate_number?: string; issue_date?: string }
          const record = await unwrap(
            submitVerificationDocument(deps, currentUser(c), {
              kind,
              upload: { name: upload.file.name || `${kind}-document`, size: upload.file.size, content: upload.file.content() },
              certificate: { number: parts.certificate_number, issueDate: parts.issue_date },
            }),
          )
          return c.json({ data: presentVerification(record) }, 201)
        } finally {
          await upload.discard()
        }
      },
    )
  }
}
