import { parse } from 'postcode'
import type { PostcodeParser } from '@tutoring/domain/shared'

/** UK postcodes through the maintained `postcode` library: "sw1a1aa" -> "SW1A 1AA", outcode "SW1A". */
export const ukPostcodes: PostcodeParser = {
  parse(text) {
    const parsed = parse(text.trim())
    if (!parsed.valid) return undefined
    return { postcode: parsed.postcode, outcode: parsed.outcode }
  },
}
