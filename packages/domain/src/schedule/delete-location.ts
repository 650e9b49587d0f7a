import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { visibleTutorRecord } from '../teaching'
import type { ScheduleDeps } from './ports'

/** Without a location a tutor offers no in-person lessons in search. */
export function deleteLocation(deps: Pick<ScheduleDeps, 'uow'>, actor: Actor, id: number): ResultAsync<void, NotFound> {
  return new ResultAsync(
    deps.uow.run(async ({ locations }): Promise<Result<void, NotFound>> => {
      const found = visibleTutorRecord(actor, await locations.findById(id), 'location')
      if (found.isErr()) return err(found.error)
      await locations.delete(id)
      return ok(undefined)
    }),
  )
}
