import { ok, ResultAsync } from 'neverthrow'
import { findUserByUsername, type AccountsDeps, type User } from '../accounts'
import { ROLE_IDS, type NotFound } from '../shared'
import { getPublicTutorProfile, type PublicTutorProfile } from './get-public-tutor-profile'
import type { TutorsDeps } from './ports'

/** A tutor is shown whole (their public profile); anyone else by name only. */
export type PublicUser = { kind: 'user'; user: User } | { kind: 'tutor'; profile: PublicTutorProfile }

/** `GET /api/users/{username}`: who may be found is accounts' rule; what a tutor shows is the public profile. */
export function getPublicUser(
  deps: { accounts: Pick<AccountsDeps, 'uow'>; tutors: TutorsDeps },
  username: string,
): ResultAsync<PublicUser, NotFound> {
  return findUserByUsername(deps.accounts, username).andThen((user) =>
    user.roleId === ROLE_IDS.tutor
      ? getPublicTutorProfile(deps.tutors, user.id).map((profile): PublicUser => ({ kind: 'tutor', profile }))
      : ok<PublicUser, NotFound>({ kind: 'user', user }),
  )
}
