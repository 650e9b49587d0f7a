import { ok, ResultAsync } from 'neverthrow'
import { DAY_MS } from '../shared'
import { isGeneratedFrom } from './pick-username'
import type { AccountsDeps, AccountsRepos } from './ports'
import type { User } from './user'

/** How long an emailed offer of a freed username stays good. */
export const USERNAME_CLAIM_DAYS = 7
/** The most offers one freed username sends; the first to claim it wins. */
const USERNAME_CLAIM_OFFERS = 20

/**
 * Soft delete: the row stays for the records that point at it; every token dies at once.
 * The username is free again, so whoever was given a generated one because it was taken
 * ("ada.lovelace.x4k2" for "ada.lovelace") is emailed a signed link to claim it (SPEC
 * "username ... can be claimed through a signed link").
 */
export function deleteAccount(deps: AccountsDeps, user: User): ResultAsync<void, never> {
  return new ResultAsync(
    deps.uow.run(async (repos) => {
      const { users, accessTokens, outbox } = repos
      const now = deps.clock.now()
      await users.softDelete(user.id, now)
      await accessTokens.revokeAllForUser(user.id, now)
      await outbox.enqueue({
        kind: 'email',
        template: 'user_deleted',
        to: deps.config.internalMailbox,
        data: {
          userId: user.id,
          email: user.email,
          name: `${user.firstname} ${user.lastname}`,
          roleId: user.roleId,
          deletedAt: now.toISOString(),
        },
        dedupeKey: `user_deleted:${user.id}`,
      })
      await offerFreedUsername(deps, repos, user, now)
      return ok(undefined)
    }),
  )
}

async function offerFreedUsername(deps: AccountsDeps, { users, outbox }: AccountsRepos, gone: User, now: Date): Promise<void> {
  const freed = gone.username
  const waiting = (await users.listByUsernamePrefix(`${freed}.`, USERNAME_CLAIM_OFFERS)).filter((u) => isGeneratedFrom(u.username, freed))
  const expiresAt = new Date(now.getTime() + USERNAME_CLAIM_DAYS * DAY_MS)
  for (const user of waiting) {
    await outbox.enqueue({
      kind: 'email',
      template: 'username_claimable',
      to: user.email,
      data: {
        firstname: user.firstname,
        username: user.username,
        claimable: freed,
        expiresAt: expiresAt.toISOString(),
        claimUrl: deps.links.signedUrl(`/api/users/username/claim/${user.id}`, { username: freed }, expiresAt),
      },
      dedupeKey: `username_claimable:${gone.id}:${user.id}`,
    })
  }
}
