import { err, ok, type Result } from 'neverthrow'
import { invalidStateTransition, type InvalidStateTransition } from './errors'

/**
 * One row of a transition table. Tables are data so that they can be read against SPEC.md
 * line by line; `effects` are specifications that each machine fills in from the trigger's
 * context (a refund's amount, a proposal's times).
 */
export type TransitionRow<S extends string, T extends string, G extends string, E> = {
  readonly from: S
  readonly trigger: T
  readonly guard?: G
  readonly to: S
  readonly effects: readonly E[]
}

/**
 * The row for (from, trigger) whose guard passes. Several rows may share (from, trigger)
 * when guards choose the destination (full or partial refund): the first passing row wins;
 * when none passes, the last guard's error says why. No row at all is an illegal trigger,
 * never a silent no-op.
 */
export const selectTransition = <S extends string, T extends string, G extends string, E, Err>(
  machine: string,
  table: readonly TransitionRow<S, T, G, E>[],
  from: S,
  trigger: T,
  checkGuard: (guard: G) => Result<void, Err>,
): Result<TransitionRow<S, T, G, E>, Err | InvalidStateTransition> => {
  let failure: Result<TransitionRow<S, T, G, E>, Err | InvalidStateTransition> = err(
    invalidStateTransition(machine, from, trigger),
  )
  for (const row of table) {
    if (row.from !== from || row.trigger !== trigger) continue
    if (row.guard === undefined) return ok(row)
    const checked = checkGuard(row.guard)
    if (checked.isOk()) return ok(row)
    failure = err(checked.error)
  }
  return failure
}
