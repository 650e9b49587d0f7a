import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { Actor, NotFound, ValidationFailed } from '../shared'
import { queueCustomerSync } from './customer-sync'
import { problemsOrOk, visible } from './owned-records'
import type { PersonalDetailsPatch, ProfilesDeps, ProfilesRepos } from './ports'
import type { PersonalDetails } from './records'

export type PersonalDetailsUpdate = PersonalDetailsPatch & { languageIds?: number[] }

/**
 * Fires PersonalDetailUpdated (SPEC "Internal events"): a tutor's date of birth goes to the
 * payment processor through the outbox. `languageIds` replaces the set of spoken languages.
 */
export function updatePersonalDetails(
  deps: ProfilesDeps,
  actor: Actor,
  input: { id: number; patch: PersonalDetailsUpdate },
): ResultAsync<PersonalDetails, NotFound | ValidationFailed> {
  return new ResultAsync(deps.uow.run((repos) => update(repos, actor, input.id, input.patch)))
}

async function update(
  repos: ProfilesRepos,
  actor: Actor,
  id: number,
  { languageIds, ...patch }: PersonalDetailsUpdate,
): Promise<Result<PersonalDetails, NotFound | ValidationFailed>> {
  const { personalDetails, owners, lookups } = repos.personalRecords
  const found = visible(await personalDetails.findById(id), actor, 'personal details')
  if (found.isErr()) return err(found.error)
  const unique = languageIds && [...new Set(languageIds)]
  if (unique) {
    const unknown = new Set(await lookups.unknownLanguageIds(unique))
    const problems = Object.fromEntries(
      languageIds!.flatMap((l, i) => (unknown.has(l) ? [[`language_ids.${i}`, ['is not a known language']]] : [])),
    )
    const checked = problemsOrOk(problems)
    if (checked.isErr()) return err(checked.error)
    await personalDetails.setLanguages(found.value.userId, unique)
  }
  const updated = await personalDetails.update(id, patch)
  const owner = await owners.find(updated.userId)
  if (owner && patch.dateOfBirth !== undefined) await queueCustomerSync(repos.outbox, owner, 'PersonalDetailUpdated')
  return ok(updated)
}
