import type { AccountsError } from './accounts'
import type { FilesError } from './files'
import type { InvalidStateTransition } from './shared'

/** Every error a use case can return; HTTP maps each `type` to a status in one table. */
export type DomainError = AccountsError | InvalidStateTransition | FilesError
