import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { visibleTutorRecord } from '../teaching'
import type { ScheduleDeps } from './ports'

export function deleteHoliday(deps: Pick<ScheduleDeps, 'uow'>, actor: Actor, id: number): ResultAsync<void, NotFound> {
  return new ResultAsync(
    deps.uow.run(async ({ holidays }): Promise<Result<void, NotFound>> => {
      const found = visibleTutorRecord(actor, await holidays.findById(id), 'holiday')
      if (found.isErr()) return err(found.error)
      await holidays.delete(id)
      return ok(undefined)
    }),
  )
}
