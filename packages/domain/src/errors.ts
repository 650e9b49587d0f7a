import type { AccountsError } from './accounts'
import type { ProfilesError } from './profiles'
import type { InvalidStateTransition } from './shared'

/** Every error a use case can return; HTTP maps each `type` to a status in one table. */
export type DomainError = AccountsError | InvalidStateTransition | ProfilesError
