/**
 * `pnpm bench` (http): every route bench in one run, then the aims judged from that run's rows
 * (aims.ts). The platform routes against their ceilings; search and availability on each demo
 * marketplace (BENCH_SIZES x BENCH_DATABASES), loaded once for both; booking creation. Each
 * bench file also runs alone (`tsx --conditions=source bench/search.bench.ts`).
 */
import { printAims } from './aims'
import { availabilityRows, printAvailability } from './availability.bench'
import { bookingRows, printBooking, type BookingRow } from './booking.bench'
import { platformHeading, platformRows, printPlatform, type PlatformRow } from './http.bench'
import { printSearch, searchRows } from './search.bench'
import { benchKinds, everyMarketplace, runWhenCommand } from './support'

runWhenCommand(import.meta.url, async () => {
  console.log(platformHeading())
  const platform: PlatformRow[] = []
  for (const kind of benchKinds()) {
    const rows = await platformRows(kind)
    printPlatform(rows)
    platform.push(...rows)
  }
  console.log('')
  const marketplace = await everyMarketplace([searchRows, availabilityRows])
  printSearch(marketplace)
  printAvailability(marketplace)
  const booking: BookingRow[] = []
  for (const kind of benchKinds()) booking.push(...(await bookingRows(kind)))
  printBooking(booking)
  printAims({ platform, marketplace, booking })
  if (!process.env.DATABASE_URL) console.log('\nPostgreSQL: skipped (set DATABASE_URL to a server to include it)')
})
