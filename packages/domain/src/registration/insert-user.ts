import { pickUsername, type NewUser, type SecretTokens, type User, type UserRepository } from '../accounts'

/**
 * Inserts the user under the first free handle of their name. A concurrent registration
 * may take the email or the handle between check and insert: a taken handle is tried
 * again, a taken email is undefined.
 */
export async function insertUser(
  deps: { secrets: SecretTokens },
  users: UserRepository,
  user: Omit<NewUser, 'username'>,
): Promise<User | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const username = await pickUsername(users, deps.secrets, user.firstname, user.lastname)
    const inserted = await users.insert({ ...user, username })
    if (inserted) return inserted
    if (await users.isEmailTaken(user.email)) return undefined
  }
  throw new Error('could not find a free username in three attempts')
}
