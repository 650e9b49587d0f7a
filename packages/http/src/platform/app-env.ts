import type { IncomingMessage } from 'node:http'
import type { User } from '@tutoring/domain/accounts'

export type AppEnv = {
  Bindings: { incoming?: IncomingMessage }
  Variables: {
    requestId: string
    clientAddress: string
    /** The bearer token's user, set for every request that carries a working token. */
    user: User | undefined
    bearerToken: string | undefined
    /** What every answer to this request carries, by lower-case name (see answer-headers.ts). */
    answerHeaders: Map<string, string>
  }
}
