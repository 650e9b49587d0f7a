/**
 * Derives the offline geocoder's district table (src/geo/data/postcode-districts.csv) from a
 * postcode extract: one centroid per outward code, the mean of its located postcodes.
 *
 *   npx tsx packages/adapters/scripts/postcode-districts.ts --geonames <GB.txt> <csv file or folder>... \
 *     > packages/adapters/src/geo/data/postcode-districts.csv
 *
 * Reads what `postcodes:import` reads (NSPL/ONSPD `pcds`, `lat`, `long`; a `Postcode,lat,long`
 * extract; Code-Point Open); rows without a position are skipped. Counts go to stderr.
 *
 * Northern Ireland (BT) postcodes are not taken from the NSPL: its Northern Ireland data is not
 * under the Open Government Licence (commercial use needs a licence from Land & Property
 * Services). Those districts come from GeoNames' postal codes of GB (`GB.txt`, tab-separated,
 * CC BY 4.0): the mean of the places GeoNames lists in each BT district.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { readPostcodeCsv } from '../src/geo/postcode-import'

/** `points`: how many postcodes (NSPL) or places (GeoNames) the mean is over. */
type Sum = { lat: number; lng: number; points: number; source: 'nspl' | 'geonames' }

const add = (sums: Map<string, Sum>, district: string, lat: number, lng: number, source: Sum['source']) => {
  const sum = sums.get(district) ?? { lat: 0, lng: 0, points: 0, source }
  sums.set(district, { lat: sum.lat + lat, lng: sum.lng + lng, points: sum.points + 1, source })
}

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
    if (!point.outcode.startsWith('BT')) add(sums, point.outcode, point.lat, point.lng, 'nspl')
  })
  return skipped
}

/** GeoNames' `GB.txt` (country, outward code, place, …, lat at 9, lng at 10): its Northern Ireland places. */
async function addGeoNames(file: string, sums: Map<string, Sum>): Promise<void> {
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    const cells = line.split('\t')
    const [district, lat, lng] = [cells[1], Number(cells[9]), Number(cells[10])]
    if (district?.startsWith('BT') && Number.isFinite(lat) && Number.isFinite(lng)) add(sums, district, lat, lng, 'geonames')
  }
}

async function main(args: string[]): Promise<void> {
  const geonames = args[0] === '--geonames' ? args[1] : undefined
  const extracts = geonames ? args.slice(2) : args
  if (!geonames || extracts.length === 0) throw new Error('usage: postcode-districts.ts --geonames <GB.txt> <csv file or folder>...')
  const sums = new Map<string, Sum>()
  let skipped = 0
  for (const file of await csvFiles(extracts)) skipped += await addFile(file, sums)
  await addGeoNames(geonames, sums)
  // "N1", "N1C", "N2", …, "N10": districts in the order people read them.
  const districts = [...sums.keys()].sort(new Intl.Collator('en', { numeric: true }).compare)
  const rows = districts.map((district) => {
    const { lat, lng, points, source } = sums.get(district)!
    return `${district},${(lat / points).toFixed(5)},${(lng / points).toFixed(5)},${points},${source}`
  })
  process.stdout.write(['district,lat,lng,points,source', ...rows, ''].join('\n'))
  const bySource = (source: Sum['source']) => [...sums.values()].filter((s) => s.source === source)
  const count = (list: Sum[]) => list.reduce((n, s) => n + s.points, 0)
  process.stderr.write(
    `${bySource('nspl').length} districts from ${count(bySource('nspl'))} NSPL postcodes (${skipped} rows without a position skipped); ` +
      `${bySource('geonames').length} Northern Ireland districts from ${count(bySource('geonames'))} GeoNames places\n`,
  )
}

await main(process.argv.slice(2))
