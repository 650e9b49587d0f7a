import type { ErrorRows } from '../platform/error-spec'

/** The availability context's rows of the error table (platform/domain-errors.ts): booking and rescheduling meet it. */
export const availabilityErrors = {
  SlotUnavailable: {
    status: 409,
    code: 'slot_unavailable',
    title: 'Slot unavailable',
    detail: (e: { start: Date; finish: Date }) =>
      `The time ${e.start.toISOString()} to ${e.finish.toISOString()} is no longer free.`,
    // CONTRACT §16: a weekly series names the start of every week that is not free.
    extensions: (e: { conflicts?: Date[] }) => (e.conflicts ? { conflicts: e.conflicts.map((d) => d.toISOString()) } : {}),
  },
} satisfies ErrorRows
