/**
 * Derives the offline geocoder's district table (src/geo/data/postcode-districts.csv) from a
 * postcode extract: one centroid per outward code, the mean of its located postcodes.
 *
 *   npx tsx packages/adapters/scripts/postcode-districts.ts <csv file or folder>... \
 *     > packages/adapters/src/geo/data/postcode-districts.csv
 *
 * Reads what `postcodes:import` reads (NSPL/ONSPD `pcds`, `lat`, `long`; a `Postcode,lat,long`
 * extract; Code-Point Open); rows without a position are skipped. Counts go to stderr.
 *
 * Northern Ireland (BT) postcodes are left out: the NSPL's Northern Ireland data is not under
 * the Open Government Licence (commercial use needs a licence from Land & Property Services),
 * so a deployment that holds one loads them with `postcodes:import` instead.
 */
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { readPostcodeCsv } from '../src/geo/postcode-import'

type Sum = { lat: number; lng: number; postcodes: number }

/** The CSV files named, a folder standing for the .csv files in it. */
async function csvFiles(args: string[]): Promise<string[]> {
  const files: string[] = []
  for (const arg of args) {
    if (!(await stat(arg)).isDirectory()) files.push(arg)
    else files.push(...(await readdir(arg)).filter((name) => name.toLowerCase().endsWith('.csv')).sort().map((name) => path.join(arg, name)))
  }
  return files
}

/** Adds each located postcode of `file` to its district's sum; answers the rows skipped. */
async function addFile(file: string, sums: Map<string, Sum>): Promise<number> {
  const { skipped } = await readPostcodeCsv(file, (point) => {
    if (point.outcode.startsWith('BT')) return
    const sum = sums.get(point.outcode) ?? { lat: 0, lng: 0, postcodes: 0 }
    sums.set(point.outcode, { lat: sum.lat + point.lat, lng: sum.lng + point.lng, postcodes: sum.postcodes + 1 })
  })
  return skipped
}

async function main(args: string[]): Promise<void> {
  if (args.length === 0) throw new Error('usage: postcode-districts.ts <csv file or folder>...')
  const sums = new Map<string, Sum>()
  let skipped = 0
  for (const file of await csvFiles(args)) skipped += await addFile(file, sums)
  // "N1", "N1C", "N2", …, "N10": districts in the order people read them.
  const districts = [...sums.keys()].sort(new Intl.Collator('en', { numeric: true }).compare)
  const rows = districts.map((district) => {
    const { lat, lng, postcodes } = sums.get(district)!
    return `${district},${(lat / postcodes).toFixed(5)},${(lng / postcodes).toFixed(5)},${postcodes}`
  })
  process.stdout.write(['district,lat,lng,postcodes', ...rows, ''].join('\n'))
  const located = [...sums.values()].reduce((n, s) => n + s.postcodes, 0)
  process.stderr.write(`${districts.length} districts from ${located} located postcodes; ${skipped} rows without a position skipped; Northern Ireland left out\n`)
}

await main(process.argv.slice(2))
