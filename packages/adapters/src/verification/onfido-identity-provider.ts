import type { IdentityApplicant, IdentityCheck, IdentityProvider } from '@tutoring/domain/verification'
import { z } from 'zod'

/**
 * Onfido (Entrust IDV) API v3.6 with Studio workflows, the hosted-link flow:
 *
 *   POST {base}/applicants     {first_name, last_name, email}                  -> 201 {id}
 *   POST {base}/workflow_runs  {workflow_id, applicant_id, customer_user_id,
 *                               link?: {completed_redirect_url}}              -> 201 {id, status, link: {url}}
 *
 * both with `Authorization: Token token=<api token>`. The workflow run id is the check's
 * `reference`, and `link.url` the page the tutor completes it on. The run's outcome
 * (approved, declined, review) is relayed to `POST /api/v1/verification/status` as
 * PASS, FAIL or INTERNAL_REVIEW (CONTRACT.md §8).
 */
export type OnfidoOptions = {
  /** e.g. `https://api.eu.onfido.com/v3.6` (or a local stand-in). */
  baseUrl: string
  token: string
  workflowId: string
  /** Where the hosted page sends the tutor when done; omitted when not configured. */
  completedRedirectUrl?: string
  timeoutMs?: number
  fetch?: typeof fetch
}

export const ONFIDO_DEFAULT_BASE_URL = 'https://api.eu.onfido.com/v3.6'
const DEFAULT_TIMEOUT_MS = 10_000

/** A refusal or an unreadable answer from the provider; surfaces as a 500 and is logged. */
export class IdentityProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'IdentityProviderError'
  }
}

const Applicant = z.object({ id: z.string().min(1) })
const WorkflowRun = z.object({ id: z.string().min(1), link: z.object({ url: z.string().url().nullish() }).nullish() })

export function onfidoIdentityProvider(options: OnfidoOptions): IdentityProvider {
  const base = options.baseUrl.replace(/\/+$/, '')
  const doFetch = options.fetch ?? fetch
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS

  async function post<T>(path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    const response = await doFetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Token token=${options.token}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (!response.ok) {
      await response.body?.cancel()
      throw new IdentityProviderError(`identity provider answered ${response.status} to POST ${path}`, response.status)
    }
    const parsed = schema.safeParse(await response.json().catch(() => undefined))
    if (!parsed.success) throw new IdentityProviderError(`identity provider sent an unexpected answer to POST ${path}`)
    return parsed.data
  }

  return {
    mode: 'live',
    async startCheck(applicant: IdentityApplicant): Promise<IdentityCheck> {
      const created = await post(
        '/applicants',
        { first_name: applicant.firstname, last_name: applicant.lastname, email: applicant.email },
        Applicant,
      )
      const run = await post(
        '/workflow_runs',
        {
          workflow_id: options.workflowId,
          applicant_id: created.id,
          customer_user_id: String(applicant.userId),
          ...(options.completedRedirectUrl ? { link: { completed_redirect_url: options.completedRedirectUrl } } : {}),
        },
        WorkflowRun,
      )
      return { reference: run.id, redirectUrl: run.link?.url ?? null }
    },
  }
}
