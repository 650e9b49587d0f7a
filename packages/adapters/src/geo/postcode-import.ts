import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import type { Kysely } from 'kysely'
import proj4 from 'proj4'
import type { Database } from '../db/database'
import { ukPostcodes } from './postcodes'

/** OSGB36 / British National Grid, with the usual 7-parameter shift to WGS84 (a few metres). */
const BRITISH_NATIONAL_GRID =
  '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy +towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489 +units=m +no_defs'
const toWgs84 = proj4(BRITISH_NATIONAL_GRID, 'WGS84')

export type PostcodePoint = { postcode: string; outcode: string; lat: number; lng: number }
export type CsvLayout = { kind: 'onspd'; postcode: number; lat: number; lng: number } | { kind: 'codepoint'; postcode: number; eastings: number; northings: number }

/** One CSV line, double quotes honoured (the files carry no line breaks inside fields). */
export function splitCsvLine(line: string): string[] {
  const fields: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"'
        i++
      } else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      fields.push(field)
      field = ''
    } else field += ch
  }
  fields.push(field)
  return fields.map((f) => f.trim())
}

/** ONS Postcode Directory (pcds or pcd, lat, long) or Code-Point Open with a header row (Postcode, Eastings, Northings). */
export function detectLayout(header: string[]): CsvLayout | undefined {
  const names = header.map((h) => h.toLowerCase())
  const at = (...candidates: string[]) => names.findIndex((n) => candidates.includes(n))
  const postcode = at('pcds', 'pcd', 'pcd2', 'postcode')
  if (postcode < 0) return undefined
  const lat = at('lat', 'latitude')
  const lng = at('long', 'lng', 'longitude')
  if (lat >= 0 && lng >= 0) return { kind: 'onspd', postcode, lat, lng }
  const eastings = at('eastings', 'easting', 'oseast1m')
  const northings = at('northings', 'northing', 'osnrth1m')
  if (eastings >= 0 && northings >= 0) return { kind: 'codepoint', postcode, eastings, northings }
  return undefined
}

/** A field as a number; an empty one is no number (`Number('')` would read it as 0). */
const numberIn = (field: string | undefined): number => (field ? Number(field) : Number.NaN)

/** A row as a point, or undefined for rows without a usable position (ONSPD's 99.999999 or empty, Code-Point's 0,0). */
export function pointOf(fields: string[], layout: CsvLayout): PostcodePoint | undefined {
  const parsed = ukPostcodes.parse(fields[layout.postcode] ?? '')
  if (!parsed) return undefined
  let lat: number
  let lng: number
  if (layout.kind === 'onspd') {
    lat = numberIn(fields[layout.lat])
    lng = numberIn(fields[layout.lng])
  } else {
    const e = numberIn(fields[layout.eastings])
    const n = numberIn(fields[layout.northings])
    if (!Number.isFinite(e) || !Number.isFinite(n) || (e === 0 && n === 0)) return undefined
    ;[lng, lat] = toWgs84.forward([e, n]) as [number, number]
  }
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined
  return { ...parsed, lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 }
}

export class PostcodeFileError extends Error {}

/**
 * Reads a postcode CSV (its header names the layout), handing each located row to `onPoint` in
 * file order. Answers the layout and how many rows had no position.
 */
export async function readPostcodeCsv(file: string, onPoint: (point: PostcodePoint) => unknown): Promise<{ skipped: number; layout: CsvLayout['kind'] }> {
  let layout: CsvLayout | undefined
  let skipped = 0
  for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    if (line.trim() === '') continue
    const fields = splitCsvLine(line.replace(/^\uFEFF/, ''))
    if (!layout) {
      layout = detectLayout(fields)
      if (!layout) throw new PostcodeFileError('no header naming pcds/pcd, lat and long (ONSPD) or Postcode, Eastings and Northings (Code-Point Open)')
      continue
    }
    const point = pointOf(fields, layout)
    if (point) await onPoint(point)
    else skipped++
  }
  if (!layout) throw new PostcodeFileError('the file is empty')
  return { skipped, layout: layout.kind }
}

/** Loads a postcode CSV into `postcodes` (upserting), 1000 rows a statement. Answers the counts. */
export async function importPostcodesCsv(db: Kysely<Database>, file: string): Promise<{ imported: number; skipped: number; layout: CsvLayout['kind'] }> {
  let batch: PostcodePoint[] = []
  let imported = 0
  const flush = async () => {
    if (batch.length === 0) return
    const unique = [...new Map(batch.map((p) => [p.postcode, p])).values()]
    await db
      .insertInto('postcodes')
      .values(unique)
      .onConflict((oc) => oc.column('postcode').doUpdateSet((eb) => ({ outcode: eb.ref('excluded.outcode'), lat: eb.ref('excluded.lat'), lng: eb.ref('excluded.lng') })))
      .execute()
    imported += unique.length
    batch = []
  }
  const read = await readPostcodeCsv(file, async (point) => {
    batch.push(point)
    if (batch.length >= 1000) await flush()
  })
  await flush()
  return { imported, ...read }
}
