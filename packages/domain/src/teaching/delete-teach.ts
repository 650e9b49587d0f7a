import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import type { TeachingDeps } from './ports'
import { visibleTutorRecord } from './tutor-records'

/** Soft delete: lessons booked on a teach keep pointing at it. */
export function deleteTeach(deps: TeachingDeps, actor: Actor, id: number): ResultAsync<void, NotFound> {
  return new ResultAsync(run(deps, actor, id))
}

async function run(deps: TeachingDeps, actor: Actor, id: number): Promise<Result<void, NotFound>> {
  return deps.uow.run(async ({ teaches }) => {
    const found = visibleTutorRecord(actor, await teaches.findById(id), 'teach')
    if (found.isErr()) return err(found.error)
    await teaches.softDelete(id, deps.clock.now())
    return ok(undefined)
  })
}
