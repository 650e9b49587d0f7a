import type { Command } from '../command'
import { withServices } from '../resources'

export const paymentsCaptureDue: Command = {
  name: 'payments:capture-due',
  usage: '',
  summary: 'authorise scheduled payments that are due, capture those whose lesson finished, cancel lessons whose payment the customer did not confirm by the start, queue tutors\' waiting transfers, and expire lapsed unpaid holds',
  options: {},
  async run({ io, config }) {
    const [{ expireHolds }, { cancelUnauthenticatedLessons, releaseWaitingTransfers, runDuePayments }] = await Promise.all([
      import('@tutoring/domain/booking'),
      import('@tutoring/domain/booking-payments'),
    ])
    await withServices(config, io, async ({ bookings }) => {
      const holds = await expireHolds(bookings)
      const report = await runDuePayments(bookings)
      const unconfirmed = await cancelUnauthenticatedLessons(bookings)
      const transfers = await releaseWaitingTransfers(bookings)
      io.out(
        `authorized ${report.authorized}, failed ${report.failed}, captured ${report.captured}, skipped ${report.skipped}, retrying later ${report.retrying}, holds expired ${holds.expired}, unconfirmed cancelled ${unconfirmed.cancelled}, transfers queued ${transfers.queued}`,
      )
    })
  },
}

export const lessonsExpireReschedules: Command = {
  name: 'lessons:expire-reschedules',
  usage: '',
  summary: "cancel, with a full refund, lessons whose reschedule proposal expired, and count lessons that finished into their tutors' hours taught",
  options: {},
  async run({ io, config }) {
    const { countHoursTaught, expireReschedules } = await import('@tutoring/domain/booking')
    await withServices(config, io, async ({ bookings }) => {
      const { expired } = await expireReschedules(bookings)
      const hours = await countHoursTaught(bookings)
      io.out(`expired ${expired}, lessons counted in hours taught ${hours.counted}, taken back ${hours.withdrawn}`)
    })
  },
}

export const lessonsRemind: Command = {
  name: 'lessons:remind',
  usage: '',
  summary: 'queue the lesson reminders that are due (LESSON_REMINDERS), by email and push to both sides; each goes out once',
  options: {},
  async run({ io, config }) {
    const { sendDueReminders } = await import('@tutoring/domain/booking')
    await withServices(config, io, async ({ bookings }) => {
      const { sent } = await sendDueReminders(bookings)
      io.out(`lesson reminders queued ${sent}`)
    })
  },
}
