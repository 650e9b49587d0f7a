import { err, ok, type Result } from 'neverthrow'
import { actsFor, notFound, validationFailed, type Actor, type FieldErrors, type NotFound, type ValidationFailed, type WithoutLocks } from '../shared'
import type { OwnedRecords, OwnerDirectory, PersonalRecords, ProfilesDeps, ProfilesRepos } from './ports'
import type { Owner } from './records'

/**
 * The user whose collection a route reads or adds to: the caller, unless internal staff name
 * another. Anyone else naming another user gets NotFound, so ids reveal nothing.
 */
export function resolveOwner(owners: WithoutLocks<OwnerDirectory>, actor: Actor, userId: number | undefined): Promise<Result<Owner, NotFound>> {
  return ownerFor(actor, userId, (id) => owners.find(id))
}

/** As `resolveOwner`, holding the owner's row until the transaction ends. */
export function lockOwner(owners: OwnerDirectory, actor: Actor, userId: number | undefined): Promise<Result<Owner, NotFound>> {
  return ownerFor(actor, userId, (id) => owners.lock(id))
}

async function ownerFor(actor: Actor, userId: number | undefined, load: (id: number) => Promise<Owner | undefined>): Promise<Result<Owner, NotFound>> {
  const id = userId ?? actor.id
  if (!actsFor(actor, id)) return err(notFound('user'))
  const owner = await load(id)
  return owner ? ok(owner) : err(notFound('user'))
}

/** A record the actor may see, or NotFound: another user's record is indistinguishable from none. */
export function visible<T extends { userId: number }>(record: T | undefined, actor: Actor, resource: string): Result<T, NotFound> {
  return record && actsFor(actor, record.userId) ? ok(record) : err(notFound(resource))
}

export const problemsOrOk = (problems: FieldErrors): Result<void, ValidationFailed> =>
  Object.keys(problems).length > 0 ? err(validationFailed(problems)) : ok(undefined)

type Collection<T, F> = (records: WithoutLocks<PersonalRecords>) => OwnedRecords<T, F>
type Check<F> = (fields: NoInfer<F>, repos: ProfilesRepos) => Promise<FieldErrors> | FieldErrors

/** The plain collections (no events, no role rules) share these four shapes. */
export async function listOwned<T, F>(deps: ProfilesDeps, actor: Actor, userId: number | undefined, pick: Collection<T, F>) {
  const { personalRecords } = deps.uow.repos
  const owner = await resolveOwner(personalRecords.owners, actor, userId)
  if (owner.isErr()) return err(owner.error)
  return ok(await pick(personalRecords).listByUser(owner.value.id))
}

export async function addOwned<T, F>(
  deps: ProfilesDeps,
  actor: Actor,
  input: { userId?: number; fields: F },
  pick: Collection<T, F>,
  check: Check<F>,
): Promise<Result<T, NotFound | ValidationFailed>> {
  return deps.uow.run(async (repos) => {
    const owner = await resolveOwner(repos.personalRecords.owners, actor, input.userId)
    if (owner.isErr()) return err(owner.error)
    const checked = problemsOrOk(await check(input.fields, repos))
    if (checked.isErr()) return err(checked.error)
    return ok(await pick(repos.personalRecords).insert(owner.value.id, input.fields))
  })
}

export async function updateOwned<T extends { userId: number }, F>(
  deps: ProfilesDeps,
  actor: Actor,
  input: { id: number; patch: Partial<F>; resource: string },
  pick: Collection<T, F>,
  check: (merged: NoInfer<T>, repos: ProfilesRepos) => Promise<FieldErrors> | FieldErrors,
): Promise<Result<T, NotFound | ValidationFailed>> {
  return deps.uow.run(async (repos) => {
    const records = pick(repos.personalRecords)
    const found = visible(await records.findById(input.id), actor, input.resource)
    if (found.isErr()) return err(found.error)
    const checked = problemsOrOk(await check({ ...found.value, ...input.patch }, repos))
    if (checked.isErr()) return err(checked.error)
    return ok(await records.update(input.id, input.patch))
  })
}

export async function removeOwned<T extends { userId: number }, F>(
  deps: ProfilesDeps,
  actor: Actor,
  input: { id: number; resource: string },
  pick: Collection<T, F>,
): Promise<Result<void, NotFound>> {
  return deps.uow.run(async (repos) => {
    const records = pick(repos.personalRecords)
    const found = visible(await records.findById(input.id), actor, input.resource)
    if (found.isErr()) return err(found.error)
    await records.remove(input.id, deps.clock.now())
    return ok(undefined)
  })
}

export const noCheck = (): FieldErrors => ({})
