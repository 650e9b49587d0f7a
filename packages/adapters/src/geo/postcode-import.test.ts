import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { detectLayout, pointOf, PostcodeFileError, readPostcodeCsv, splitCsvLine, type PostcodePoint } from './postcode-import'

describe('postcode CSV import', () => {
  it('reads ONSPD rows by their header and skips those without a position', () => {
    const layout = detectLayout(splitCsvLine('"pcd","pcd2","pcds","dointr","lat","long"'))!
    expect(layout).toEqual({ kind: 'onspd', postcode: 0, lat: 4, lng: 5 })
    expect(pointOf(splitCsvLine('"SW1A1AA","SW1A 1AA","SW1A 1AA","199801",51.501009,-0.141588'), layout)).toEqual({
      postcode: 'SW1A 1AA',
      outcode: 'SW1A',
      lat: 51.501009,
      lng: -0.141588,
    })
    expect(pointOf(splitCsvLine('"GY11AA","GY1 1AA","GY1 1AA","199801",99.999999,0.000000'), layout)).toBeUndefined()
  })

  it('skips a row whose latitude or longitude is empty rather than placing it at 0,0', () => {
    const layout = detectLayout(['Postcode', 'lat', 'long'])!
    expect(pointOf(['AB113AG', '', '0.00000'], layout)).toBeUndefined()
    expect(pointOf(['AB113AG', '57.1', ''], layout)).toBeUndefined()
    expect(pointOf(['AB113AG', '57.14', '-2.09'], layout)).toEqual({ postcode: 'AB11 3AG', outcode: 'AB11', lat: 57.14, lng: -2.09 })
  })

  it('converts Code-Point Open eastings and northings to WGS84', () => {
    const layout = detectLayout(['Postcode', 'Positional_quality_indicator', 'Eastings', 'Northings'])!
    expect(layout.kind).toBe('codepoint')
    // Buckingham Palace: 529090, 179645 on the National Grid.
    const point = pointOf(['SW1A 1AA', '10', '529090', '179645'], layout)!
    expect(point.postcode).toBe('SW1A 1AA')
    expect(point.lat).toBeCloseTo(51.501, 2)
    expect(point.lng).toBeCloseTo(-0.1416, 2)
  })

  it('refuses a file it can not read', () => {
    expect(detectLayout(['a', 'b'])).toBeUndefined()
  })
})

describe('reading a postcode CSV file', () => {
  const withFile = async <T>(text: string, use: (file: string) => Promise<T>): Promise<T> => {
    const dir = await mkdtemp(path.join(tmpdir(), 'postcodes-'))
    try {
      await writeFile(path.join(dir, 'a.csv'), text)
      return await use(path.join(dir, 'a.csv'))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  it('hands over each located row in file order and counts the rest', async () => {
    const points: PostcodePoint[] = []
    const read = await withFile('\uFEFFPostcode,lat,long\r\nN1 9GU,51.53491,-0.12166\r\n\r\nAB113AG,,0.00000\r\nab101xg,57.1,-2.1\r\n', (file) =>
      readPostcodeCsv(file, (point) => points.push(point)),
    )
    expect(read).toEqual({ skipped: 1, layout: 'onspd' })
    expect(points).toEqual([
      { postcode: 'N1 9GU', outcode: 'N1', lat: 51.53491, lng: -0.12166 },
      { postcode: 'AB10 1XG', outcode: 'AB10', lat: 57.1, lng: -2.1 },
    ])
  })

  it('refuses a file without a header it knows, or an empty one', async () => {
    await expect(withFile('a,b\n1,2\n', (file) => readPostcodeCsv(file, () => undefined))).rejects.toThrow(PostcodeFileError)
    await expect(withFile('', (file) => readPostcodeCsv(file, () => undefined))).rejects.toThrow('the file is empty')
  })
})
