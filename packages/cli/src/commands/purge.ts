import type { Command } from '../command'
import { withServices } from '../resources'

/** What the server's hourly jobs remove, for installs that run them from here (BACKGROUND_JOBS=off). */
export const purgeExpired: Command = {
  name: 'purge:expired',
  usage: '',
  summary: 'remove what is kept only for a while: idempotency keys past a day, uploads made without an account that nobody claimed within a day, push callbacks past 30 days',
  options: {},
  async run({ io, config, answer }) {
    await withServices(config, io, async ({ infra }) => {
      const keys = await infra.idempotency.purge(infra.clock.now())
      const uploads = await infra.purgeUnclaimedUploads()
      const callbacks = await infra.purgePushCallbacks()
      answer({ idempotency_keys: keys, unclaimed_uploads: uploads, push_callbacks: callbacks }, `idempotency keys ${keys}, unclaimed uploads ${uploads}, push callbacks ${callbacks}`)
    })
  },
}
