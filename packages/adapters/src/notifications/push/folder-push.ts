import { randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { PushGateway } from '@tutoring/domain/notifications'

/**
 * The default without provider credentials: each push becomes one JSON file under
 * `DATA_DIR/push/`, like mail's `.eml` files, so what would have reached a device can be read.
 */
export function folderPushGateway(dir: string, now: () => Date = () => new Date()): PushGateway {
  return {
    async send(device, notification) {
      const at = now()
      const name = `${at.toISOString().replace(/[:.]/g, '-')}-${device.platform}-${randomBytes(6).toString('hex')}.json`
      await mkdir(dir, { recursive: true })
      const record = { platform: device.platform, token: device.token, ...notification, created_at: at.toISOString() }
      await writeFile(path.join(dir, name), `${JSON.stringify(record, null, 2)}\n`)
      return { outcome: 'sent', providerMessageId: name }
    },
  }
}
