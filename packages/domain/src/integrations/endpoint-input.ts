import { err, ok, type Result } from 'neverthrow'
import { validationFailed, type FieldErrors, type ValidationFailed } from '../shared'
import type { EndpointUrlCheck } from './ports'
import { isWebhookEventType, type WebhookEventType } from './webhooks'

/**
 * An endpoint's URL and event types as a client sends them: every type known (else 422 on
 * `events.N`), at least one, none twice; the URL through the address guard (CONTRACT §16).
 */
export async function checkEndpointFields(
  urls: EndpointUrlCheck,
  input: { url?: string; events?: readonly string[] },
): Promise<Result<{ events?: WebhookEventType[] }, ValidationFailed>> {
  const errors: FieldErrors = {}
  if (input.events !== undefined) {
    if (input.events.length === 0) errors.events = ['name at least one event type']
    input.events.forEach((type, i) => {
      if (!isWebhookEventType(type)) errors[`events.${i}`] = ['is not a known event type']
    })
  }
  if (input.url !== undefined) {
    const problem = await urls.problem(input.url)
    if (problem) errors.url = [problem]
  }
  if (Object.keys(errors).length > 0) return err(validationFailed(errors))
  return ok({ events: input.events === undefined ? undefined : [...new Set(input.events as WebhookEventType[])] })
}
