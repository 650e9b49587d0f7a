import { DAY_MS } from '../shared'
import { isGeneratedFrom } from './pick-username'
import type { AccountsDeps, AccountsRepos } from './ports'
import type { User } from './user'

/** How long an emailed offer of a freed username stays good. */
export const USERNAME_CLAIM_DAYS = 7
/** The most offers one freed username sends; the first to claim it wins. */
const USERNAME_CLAIM_OFFERS = 20

/**
 * A username is free again (its holder left it or deleted their account): whoever was given a
 * generated one because it was taken ("ada.lovelace.x4k2" for "ada.lovelace") is emailed a
 * signed link to claim it (SPEC "username ... can be claimed through a signed link").
 */
export async function offerFreedUsername(
  deps: Pick<AccountsDeps, 'links'>,
  { users, outbox }: Pick<AccountsRepos, 'users' | 'outbox'>,
  freed: { holder: User; username: string },
  now: Date,
): Promise<void> {
  const waiting = (await users.listByUsernamePrefix(`${freed.username}.`, USERNAME_CLAIM_OFFERS)).filter(
    (u) => u.id !== freed.holder.id && isGeneratedFrom(u.username, freed.username),
  )
  const expiresAt = new Date(now.getTime() + USERNAME_CLAIM_DAYS * DAY_MS)
  for (const user of waiting) {
    await outbox.enqueue({
      kind: 'email',
      template: 'username_claimable',
      to: user.email,
      data: {
        firstname: user.firstname,
        username: user.username,
        claimable: freed.username,
        expiresAt: expiresAt.toISOString(),
        claimUrl: deps.links.signedUrl(`/api/users/username/claim/${user.id}`, { username: freed.username }, expiresAt),
      },
      dedupeKey: `username_claimable:${freed.username}:${freed.holder.id}:${user.id}:${now.getTime()}`,
    })
  }
}
