import type { IdentityProvider } from '@tutoring/domain/verification'
import { ConfigError, type Config } from '../config'
import { offlineIdentityProvider } from './offline-identity-provider'
import { ONFIDO_DEFAULT_BASE_URL, onfidoIdentityProvider } from './onfido-identity-provider'

export { offlineIdentityProvider } from './offline-identity-provider'
export { IdentityProviderError, ONFIDO_DEFAULT_BASE_URL, onfidoIdentityProvider, type OnfidoOptions } from './onfido-identity-provider'

/** The real provider when a token is configured, else the offline default. */
export function identityProviderFromConfig(config: Config): IdentityProvider {
  if (!config.IDENTITY_PROVIDER_TOKEN) return offlineIdentityProvider()
  if (!config.IDENTITY_PROVIDER_WORKFLOW_ID) {
    throw new ConfigError(['IDENTITY_PROVIDER_WORKFLOW_ID is required with IDENTITY_PROVIDER_TOKEN'])
  }
  return onfidoIdentityProvider({
    baseUrl: config.IDENTITY_PROVIDER_URL ?? ONFIDO_DEFAULT_BASE_URL,
    token: config.IDENTITY_PROVIDER_TOKEN,
    workflowId: config.IDENTITY_PROVIDER_WORKFLOW_ID,
    completedRedirectUrl: config.IDENTITY_PROVIDER_REDIRECT_URL,
    timeoutMs: config.IDENTITY_PROVIDER_TIMEOUT_MS,
  })
}
