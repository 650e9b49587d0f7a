import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { visibleTutorRecord } from '../teaching'
import type { ScheduleDeps } from './ports'

/** Removes a weekly entry; lessons already booked in it stay booked. */
export function deleteDaySchedule(deps: Pick<ScheduleDeps, 'uow'>, actor: Actor, id: number): ResultAsync<void, NotFound> {
  return new ResultAsync(run(deps, actor, id))
}

async function run(deps: Pick<ScheduleDeps, 'uow'>, actor: Actor, id: number): Promise<Result<void, NotFound>> {
  return deps.uow.run(async ({ daySchedules }) => {
    const found = visibleTutorRecord(actor, await daySchedules.findById(id), 'day availability')
    if (found.isErr()) return err(found.error)
    await daySchedules.delete(id)
    return ok(undefined)
  })
}
