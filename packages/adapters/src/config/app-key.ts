import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * The key behind signed links and `secret` values. Every instance must share it, so a
 * deployment sets APP_KEY; the embedded default makes one once and keeps it in DATA_DIR.
 */
export async function resolveAppKey(appKey: string | undefined, dataDir: string): Promise<Buffer> {
  if (appKey) return decodeKey(appKey)
  const file = path.join(dataDir, 'app.key')
  try {
    return decodeKey((await readFile(file, 'utf8')).trim())
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(dataDir, { recursive: true })
  const fresh = `base64:${randomBytes(32).toString('base64')}`
  await writeFile(file, `${fresh}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error
  })
  return decodeKey((await readFile(file, 'utf8')).trim())
}

const keyBytes = (value: string): Buffer => (value.startsWith('base64:') ? Buffer.from(value.slice(7), 'base64') : Buffer.from(value, 'utf8'))

export const isUsableAppKey = (value: string): boolean => keyBytes(value).length >= 32

function decodeKey(value: string): Buffer {
  if (!isUsableAppKey(value)) throw new Error('APP_KEY must hold at least 32 bytes (use base64:<44 chars>)')
  return keyBytes(value)
}
