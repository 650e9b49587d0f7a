import type { AccountsDeps, UserRepository } from './ports'
import { usernameBase } from './user'

/** The first free handle of "ada.lovelace", "ada.lovelace.4821", ... */
export async function pickUsername(
  users: Pick<UserRepository, 'isUsernameTaken'>,
  secrets: AccountsDeps['secrets'],
  firstname: string,
  lastname: string,
): Promise<string> {
  const base = usernameBase(firstname, lastname)
  if (!(await users.isUsernameTaken(base))) return base
  for (;;) {
    const candidate = `${base}.${secrets.randomSuffix(4)}`
    if (!(await users.isUsernameTaken(candidate))) return candidate
  }
}
