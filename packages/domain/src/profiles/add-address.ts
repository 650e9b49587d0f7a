import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { fieldError, ROLE_IDS, type NotFound, type ValidationFailed, type Actor } from '../shared'
import { queueCustomerSync } from './customer-sync'
import { lockOwner } from './owned-records'
import type { ProfilesDeps, ProfilesRepos } from './ports'
import type { UserAddress, AddressFields } from './records'

/** The country defaults to the owner's country of registration. */
export type AddressInput = Omit<AddressFields, 'country'> & { country?: string }

/**
 * Fires AddressUpdated. SPEC "Tutors hold at most one address": a tutor's new address
 * replaces the old one in the same transaction, under a lock on the tutor so two
 * concurrent additions can't leave two addresses.
 */
export function addAddress(
  deps: ProfilesDeps,
  actor: Actor,
  input: { userId?: number; fields: AddressInput },
): ResultAsync<UserAddress, NotFound | ValidationFailed> {
  return new ResultAsync(deps.uow.run((repos) => add(repos, actor, input)))
}

async function add(
  repos: ProfilesRepos,
  actor: Actor,
  input: { userId?: number; fields: AddressInput },
): Promise<Result<UserAddress, NotFound | ValidationFailed>> {
  const { owners, addresses, lookups } = repos.personalRecords
  const owner = await lockOwner(owners, actor, input.userId)
  if (owner.isErr()) return err(owner.error)
  const country = input.fields.country ?? owner.value.country
  if (!(await lookups.countryExists(country))) return err(fieldError('country', 'is not a known country code'))
  if (owner.value.roleId === ROLE_IDS.tutor) await addresses.removeAllForUser(owner.value.id)
  const address = await addresses.insert(owner.value.id, { ...input.fields, country })
  await queueCustomerSync(repos.outbox, owner.value, 'AddressUpdated')
  return ok(address)
}
