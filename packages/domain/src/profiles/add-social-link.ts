import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound, ValidationFailed } from '../shared'
import { addOwned, noCheck } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { SocialLink, SocialLinkFields } from './records'

export function addSocialLink(
  deps: ProfilesDeps,
  actor: Actor,
  input: { userId?: number; fields: SocialLinkFields },
): ResultAsync<SocialLink, NotFound | ValidationFailed> {
  return new ResultAsync(addOwned(deps, actor, input, (r) => r.socialLinks, noCheck))
}
