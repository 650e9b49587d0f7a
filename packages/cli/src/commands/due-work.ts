import type { Infrastructure } from '@tutoring/adapters'
import type { Command } from '../command'
import { withInfrastructure } from '../resources'

const bookingDeps = (infra: Infrastructure) => ({
  uow: infra.uow,
  clock: infra.clock,
  processor: infra.processor,
  config: infra.bookingConfig,
})

export const paymentsCaptureDue: Command = {
  name: 'payments:capture-due',
  usage: '',
  summary: 'authorise scheduled payments that are due, capture those whose lesson finished, and expire lapsed unpaid holds',
  options: {},
  async run({ io, config }) {
    const { expireHolds, runDuePayments } = await import('@tutoring/domain')
    await withInfrastructure(config, io, async (infra) => {
      const deps = bookingDeps(infra)
      const holds = await expireHolds(deps)
      const report = await runDuePayments(deps)
      io.out(`authorized ${report.authorized}, failed ${report.failed}, captured ${report.captured}, skipped ${report.skipped}, holds expired ${holds.expired}`)
    })
  },
}

export const lessonsExpireReschedules: Command = {
  name: 'lessons:expire-reschedules',
  usage: '',
  summary: 'cancel, with a full refund, lessons whose reschedule proposal expired',
  options: {},
  async run({ io, config }) {
    const { expireReschedules } = await import('@tutoring/domain')
    await withInfrastructure(config, io, async (infra) => {
      const { expired } = await expireReschedules(bookingDeps(infra))
      io.out(`expired ${expired}`)
    })
  },
}
