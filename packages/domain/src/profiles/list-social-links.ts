import { err, ok, ResultAsync } from 'neverthrow'
import { notFound, type NotFound } from '../shared'
import type { ProfilesDeps } from './ports'
import type { SocialLink } from './records'

/** Public profile data: anyone may read any live user's links. */
export function listSocialLinks(deps: ProfilesDeps, input: { userId: number }): ResultAsync<SocialLink[], NotFound> {
  const { owners, socialLinks } = deps.uow.repos.personalRecords
  return new ResultAsync(
    owners.find(input.userId).then(async (owner) => (owner ? ok(await socialLinks.listByUser(owner.id)) : err(notFound('user')))),
  )
}
