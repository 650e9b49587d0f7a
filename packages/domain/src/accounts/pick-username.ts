import type { AccountsDeps, UserRepository } from './ports'
import { usernameBase } from './user'

const SUFFIX_LENGTH = 4

/** Whether `username` is what pickUsername made of `wanted` while `wanted` was taken ("ada.lovelace.x4k2"). */
export const isGeneratedFrom = (username: string, wanted: string): boolean =>
  username.length === wanted.length + 1 + SUFFIX_LENGTH &&
  username.toLowerCase().startsWith(`${wanted.toLowerCase()}.`) &&
  /^[a-z0-9]+$/.test(username.slice(wanted.length + 1))

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
    const candidate = `${base}.${secrets.randomSuffix(SUFFIX_LENGTH)}`
    if (!(await users.isUsernameTaken(candidate))) return candidate
  }
}
