import path from 'node:path'
import type { PushGateway } from '@tutoring/domain/notifications'
import { publicAddressesOnly } from '../../net'
import { ConfigError, type Config } from '../../config'
import type { Logger } from '../../logger'
import { devicePushGateway } from './device-push'
import { fcmPushGateway } from './fcm-push'
import { folderPushGateway } from './folder-push'
import { loadServiceAccount, ServiceAccountError } from './service-account'
import { webPushGateway } from './web-push'

export { devicePushGateway } from './device-push'
export { fcmPushGateway, fcmMessage, FCM_API_BASE, FCM_SCOPE, type FcmOptions } from './fcm-push'
export { folderPushGateway } from './folder-push'
export { loadServiceAccount, ServiceAccountError, GOOGLE_TOKEN_URI, type ServiceAccount } from './service-account'
export { webPushGateway, type VapidKeys, type WebPushOptions } from './web-push'

/**
 * FCM when a service account is configured, Web Push when VAPID keys are; a platform whose
 * provider has no credentials writes its pushes to `DATA_DIR/push/`.
 */
export async function pushGatewayFromConfig(config: Config, logger: Logger): Promise<PushGateway> {
  const folder = folderPushGateway(path.join(config.DATA_DIR, 'push'))
  return devicePushGateway({ mobile: (await fcmFromConfig(config, logger)) ?? folder, web: webFromConfig(config, logger) ?? folder })
}

async function fcmFromConfig(config: Config, logger: Logger): Promise<PushGateway | undefined> {
  if (!config.FCM_SERVICE_ACCOUNT_JSON && !config.FCM_SERVICE_ACCOUNT_FILE) return undefined
  try {
    const account = await loadServiceAccount({ json: config.FCM_SERVICE_ACCOUNT_JSON, file: config.FCM_SERVICE_ACCOUNT_FILE })
    const projectId = config.FCM_PROJECT_ID ?? account.projectId
    if (!projectId) throw new ConfigError(['FCM_PROJECT_ID is needed when the service account names no project_id'])
    return fcmPushGateway({ account, projectId, apiBase: config.FCM_API_URL, timeoutMs: config.PUSH_TIMEOUT_MS, logger })
  } catch (error) {
    if (error instanceof ServiceAccountError) throw new ConfigError([error.message])
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') throw new ConfigError(['FCM_SERVICE_ACCOUNT_FILE: no such file'])
    throw error
  }
}

function webFromConfig(config: Config, logger: Logger): PushGateway | undefined {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: subject } = config
  if (!publicKey && !privateKey) return undefined
  if (!publicKey || !privateKey || !subject) throw new ConfigError(['VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT go together'])
  return webPushGateway({ vapid: { publicKey, privateKey, subject }, timeoutMs: config.PUSH_TIMEOUT_MS, logger, policy: publicAddressesOnly })
}
