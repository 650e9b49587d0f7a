import fc from 'fast-check'

/** Any character but the lone halves of a surrogate pair, so every edit is a real string. */
const anyCharacter = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((code) => code < 0xd800 || code > 0xdfff)
  .map((code) => String.fromCodePoint(code))

/** A character likely to slip past a careless parser: same alphabet, case, separators. */
const trickyCharacter = fc.constantFrom(
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=&?#%.\\ \t'.split(''),
)

/**
 * One character of `value` in `[from, to)` replaced by a different one: the edits a
 * forger or a corrupting proxy could make. Test-only (property tests beside this file).
 */
export function singleCharacterEdit(value: string, from = 0, to = value.length): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: from, max: to - 1 }), fc.oneof(trickyCharacter, anyCharacter))
    .filter(([index, replacement]) => value[index] !== replacement)
    .map(([index, replacement]) => `${value.slice(0, index)}${replacement}${value.slice(index + 1)}`)
}
