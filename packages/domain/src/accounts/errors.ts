import type { Forbidden, NotFound, ValidationFailed } from '../shared'

export type InvalidCredentials = { type: 'InvalidCredentials' }
export const invalidCredentials = (): InvalidCredentials => ({ type: 'InvalidCredentials' })

export type Unauthenticated = { type: 'Unauthenticated' }
export const unauthenticated = (): Unauthenticated => ({ type: 'Unauthenticated' })

export type AccountsError =
  | InvalidCredentials
  | Unauthenticated
  | ValidationFailed
  | NotFound
  | Forbidden
