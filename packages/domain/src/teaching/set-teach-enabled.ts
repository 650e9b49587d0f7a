import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import type { TeachingDeps } from './ports'
import type { Teach } from './teach'
import { visibleTutorRecord } from './tutor-records'

/** Enable or disable a teach; repeating either is harmless. A disabled teach is not offered. */
export function setTeachEnabled(
  deps: Pick<TeachingDeps, 'uow'>,
  actor: Actor,
  input: { id: number; enabled: boolean },
): ResultAsync<Teach, NotFound> {
  return new ResultAsync(run(deps, actor, input.id, input.enabled))
}

async function run(deps: Pick<TeachingDeps, 'uow'>, actor: Actor, id: number, enabled: boolean): Promise<Result<Teach, NotFound>> {
  return deps.uow.run(async ({ teaches }) => {
    const found = visibleTutorRecord(actor, await teaches.findById(id), 'teach')
    if (found.isErr()) return err(found.error)
    if (found.value.enabled === enabled) return ok(found.value)
    const updated = await teaches.update(id, { ...found.value, enabled })
    if (!updated) throw new Error(`teach ${id} could not be updated in place`)
    return ok(updated)
  })
}
