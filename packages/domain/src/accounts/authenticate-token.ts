import type { AccountsDeps } from './ports'
import type { User } from './user'

/** The live user a bearer token belongs to, or undefined for any token that doesn't work. */
export async function authenticateToken(
  deps: Pick<AccountsDeps, 'uow' | 'secrets' | 'clock'>,
  token: string,
): Promise<User | undefined> {
  return deps.uow.repos.accessTokens.findLiveUser(deps.secrets.hash(token), deps.clock.now())
}
