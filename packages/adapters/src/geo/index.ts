import type { Kysely } from 'kysely'
import type { AddressDirectory } from '@tutoring/domain/availability'
import type { Config } from '../config'
import type { Database } from '../db/database'
import type { Logger } from '../logger'
import { tablePostcodeDirectory } from './postcode-table'
import { postcodesIoDirectory } from './postcodes-io'

export { ukPostcodes } from './postcodes'
export { tablePostcodeDirectory } from './postcode-table'
export { postcodesIoDirectory } from './postcodes-io'

/** Postcode lookup and address search: postcodes.io when `POSTCODES_API_URL` is set (the table when it fails), else the postcodes table. */
export function addressDirectoryFromConfig(config: Config, db: Kysely<Database>, logger: Logger): AddressDirectory {
  const table = tablePostcodeDirectory(db)
  if (!config.POSTCODES_API_URL) return table
  return postcodesIoDirectory({ baseUrl: config.POSTCODES_API_URL, timeoutMs: config.POSTCODES_API_TIMEOUT_MS, fallback: table, logger })
}
