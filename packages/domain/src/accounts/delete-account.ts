import { ok, ResultAsync } from 'neverthrow'
import { offerFreedUsername } from './freed-username'
import type { AccountsDeps } from './ports'
import type { User } from './user'

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
      await offerFreedUsername(deps, repos, { holder: user, username: user.username }, now)
      return ok(undefined)
    }),
  )
}
