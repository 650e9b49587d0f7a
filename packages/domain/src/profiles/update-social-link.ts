import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound, ValidationFailed } from '../shared'
import { noCheck, updateOwned } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { SocialLink, SocialLinkFields } from './records'

export function updateSocialLink(
  deps: ProfilesDeps,
  actor: Actor,
  input: { id: number; patch: Partial<SocialLinkFields> },
): ResultAsync<SocialLink, NotFound | ValidationFailed> {
  return new ResultAsync(updateOwned(deps, actor, { ...input, resource: 'social link' }, (r) => r.socialLinks, noCheck))
}
