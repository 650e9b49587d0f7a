import { ok, ResultAsync } from 'neverthrow'
import type { AccountsDeps } from './ports'
import type { User } from './user'

/** Soft delete: the row stays for the records that point at it; every token dies at once. */
export function deleteAccount(deps: AccountsDeps, user: User): ResultAsync<void, never> {
  return new ResultAsync(
    deps.uow.run(async ({ users, accessTokens, outbox }) => {
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
      return ok(undefined)
    }),
  )
}
