import { err, ok, type Result } from 'neverthrow'
import { invalidStateTransition, type InvalidStateTransition } from './errors'

/**
 * One row of a transition table. Tables are data so that they can be read against SPEC.md
 * line by line; `effects` are specifications that each machine fills in from the trigger's
 * context (a refund's amount, a proposal's times). `From` may add a pseudo-state such as
 * `NEW` (the row that creates a record) which no row leads to.
 */
export type TransitionRow<From extends string, T extends string, G extends string, E, To extends From = From> = {
  readonly from: From
  readonly trigger: T
  readonly guard?: G
  readonly to: To
  readonly effects: readonly E[]
}

/** A trigger with no data to check. */
export type NoContext = Record<string, never>

/**
 * The row for (from, trigger) whose guard passes. Several rows may share (from, trigger)
 * when guards choose the destination (full or partial refund): the first passing row wins;
 * when none passes, the last guard's error says why. No row at all is an illegal trigger,
 * never a silent no-op.
 */
export const selectTransition = <From extends string, T extends string, G extends string, E, To extends From, Err>(
  machine: string,
  table: readonly TransitionRow<From, T, G, E, To>[],
  from: From,
  trigger: T,
  checkGuard: (guard: G) => Result<void, Err>,
): Result<TransitionRow<From, T, G, E, To>, Err | InvalidStateTransition> => {
  let failure: Result<TransitionRow<From, T, G, E, To>, Err | InvalidStateTransition> = err(
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

/** A table row paired a guard or an effect with a trigger that cannot feed it: a bug. */
export const tableMisuse = (machine: string, what: string, trigger: string): never => {
  throw new Error(`${machine} table: ${what} cannot apply to trigger ${trigger}`)
}
