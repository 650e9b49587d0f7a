import type { Command } from '../command'
import { withServices } from '../resources'

/** The server's minute job that folds the online search's count deltas, for installs that run it from here (BACKGROUND_JOBS=off). */
export const searchCompactCounts: Command = {
  name: 'search:compact-counts',
  usage: '',
  summary: "fold the online search's count deltas into one row per subject and weekday, so a search sums few rows (the server does it every minute; safe beside it and beside other runs)",
  options: {},
  async run({ io, config, answer }) {
    await withServices(config, io, async ({ infra }) => {
      const folded = await infra.compactSearchCounts()
      answer({ folded }, `count rows folded ${folded}`)
    })
  },
}
