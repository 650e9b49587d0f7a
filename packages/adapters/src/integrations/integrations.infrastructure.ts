import { randomBytes } from 'node:crypto'
import { DELIVERY_TIMEOUT_MS, type EndpointUrlCheck, type SecretGenerator, type WebhookSender } from '@tutoring/domain/integrations'
import type { Config } from '../config'
import { publicAddressesOnly, type AddressPolicy } from '../net'
import { endpointUrlCheck } from './endpoint-url-check'
import { webhookSender } from './webhook-sender'

/** CONTRACT §16: `whsec_` and base64 of 32 random bytes (at least 24 asked). */
export const webhookSecrets: SecretGenerator = { webhookSecret: () => `whsec_${randomBytes(32).toString('base64')}` }

/**
 * Outbound webhooks' outside world: the URL check and the sender, both behind the address
 * guard (`policy`, public addresses only unless overridden) unless WEBHOOKS_ALLOW_INSECURE
 * lifts it for the endpoint's own URL. A redirect is held to `policy` whatever the flag says.
 */
export function webhooksFromConfig(config: Config, policy: AddressPolicy = publicAddressesOnly): { urls: EndpointUrlCheck; sender: WebhookSender } {
  const allowInsecure = config.WEBHOOKS_ALLOW_INSECURE === 'true'
  const endpointPolicy: AddressPolicy = allowInsecure ? { ...policy, allow: () => true } : policy
  return {
    urls: endpointUrlCheck({ policy: endpointPolicy, allowInsecure }),
    sender: webhookSender({ timeoutMs: DELIVERY_TIMEOUT_MS, policy: endpointPolicy, redirectPolicy: policy, allowInsecure }),
  }
}

