/**
 * Writes @tutoring/client's types from the document this app serves (an app on an in-memory
 * PGlite database, as the tests build it): `pnpm --filter @tutoring/client generate`.
 */
import { writeFile } from 'node:fs/promises'
import { createTestContext } from '../test/support/harness'
import { CLIENT_TYPES_FILE, clientTypes } from './client-types'

const t = await createTestContext('pglite')
try {
  const res = await t.request('GET', '/openapi.json')
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`)
  await writeFile(CLIENT_TYPES_FILE, await clientTypes(res.text))
  console.log(`wrote ${CLIENT_TYPES_FILE.pathname}`)
} finally {
  await t.close()
}
// The test context leaves a timer or two of the infrastructure behind (it is built for a test
// run, which ends its workers): a script is done once the file is written.
process.exit()
