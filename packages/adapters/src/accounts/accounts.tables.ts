import type { AccessTokensTable } from './access-tokens.table'
import type { PasswordResetsTable } from './password-resets.table'
import type { UsersTable } from './users.table'

/** The accounts context's tables, as Kysely sees them; `Database` joins every context's. */
export interface AccountsTables {
  access_tokens: AccessTokensTable
  password_resets: PasswordResetsTable
  users: UsersTable
}
