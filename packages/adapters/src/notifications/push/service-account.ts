import { readFile } from 'node:fs/promises'
import { z } from 'zod'

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token'

const ServiceAccountJson = z.object({
  type: z.literal('service_account').optional(),
  project_id: z.string().min(1).optional(),
  private_key_id: z.string().optional(),
  private_key: z.string().includes('PRIVATE KEY'),
  client_email: z.string().min(1),
  token_uri: z.url().default(GOOGLE_TOKEN_URI),
})

/** The fields of a Google service-account JSON key that FCM's OAuth exchange uses. */
export type ServiceAccount = {
  projectId: string | null
  privateKeyId: string | null
  privateKey: string
  clientEmail: string
  tokenUri: string
}

export class ServiceAccountError extends Error {}

/** Reads a service-account key given as JSON text (`FCM_SERVICE_ACCOUNT_JSON`) or a file (`FCM_SERVICE_ACCOUNT_FILE`). */
export async function loadServiceAccount(source: { json?: string; file?: string }): Promise<ServiceAccount> {
  const text = source.json ?? (source.file ? await readFile(source.file, 'utf8') : undefined)
  if (text === undefined) throw new ServiceAccountError('no service account given')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new ServiceAccountError('the FCM service account is not JSON')
  }
  const parsed = ServiceAccountJson.safeParse(json)
  if (!parsed.success) {
    throw new ServiceAccountError(`the FCM service account lacks ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`)
  }
  const key = parsed.data
  return {
    projectId: key.project_id ?? null,
    privateKeyId: key.private_key_id ?? null,
    privateKey: key.private_key,
    clientEmail: key.client_email,
    tokenUri: key.token_uri,
  }
}
