import type { User } from '../accounts'
import type { Outbox } from '../outbox'
import type { VerificationEffect, VerificationStatus } from './verification'
import type { VerificationRecord } from './verification-record'

export type EffectContext = {
  record: VerificationRecord
  previous: VerificationStatus
  tutor: User | undefined
  /** What caused the change (an event id): the same cause never queues twice. */
  cause: string
  internalMailbox: string
}

/** Carries out the machine's effects; each is written to the outbox in the caller's transaction. */
export async function queueVerificationEffects(outbox: Outbox, effects: readonly VerificationEffect[], ctx: EffectContext): Promise<void> {
  for (const effect of effects) {
    const to = effect.to === 'internal_mailbox' ? ctx.internalMailbox : effect.to
    await outbox.enqueue({
      kind: 'email',
      template: effect.template,
      to,
      data: {
        userId: ctx.record.userId,
        name: ctx.tutor ? `${ctx.tutor.firstname} ${ctx.tutor.lastname}` : null,
        email: ctx.tutor?.email ?? null,
        kind: ctx.record.kind,
        status: ctx.record.status,
        previousStatus: ctx.previous,
        reference: ctx.record.reference,
      },
      dedupeKey: `${effect.template}:${ctx.cause}`,
    })
  }
}
