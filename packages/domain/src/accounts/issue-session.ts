import type { AccessTokenRepository, AccountsDeps } from './ports'
import type { User } from './user'

export type SessionIssued = { token: string; expiresIn: number; user: User }

/** Stores only the token's hash; the token itself is shown to the client once. */
export async function issueSession(
  deps: Pick<AccountsDeps, 'secrets' | 'clock' | 'config'>,
  accessTokens: AccessTokenRepository,
  user: User,
): Promise<SessionIssued> {
  const { token, hash } = deps.secrets.generate()
  const lifetime = deps.config.tokenLifetimeSeconds
  const expiresAt = new Date(deps.clock.now().getTime() + lifetime * 1000)
  await accessTokens.insert({ userId: user.id, tokenHash: hash, expiresAt })
  return { token, expiresIn: lifetime, user }
}
