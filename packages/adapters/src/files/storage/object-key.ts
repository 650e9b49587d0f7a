/**
 * Keys are slash-separated segments of letters, digits, dots, dashes and underscores, each
 * starting with a letter or digit: no `..`, no absolute paths, nothing to escape a folder
 * with or to encode in a URL.
 */
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/

export const isObjectKey = (key: string): boolean => key.length <= 512 && KEY.test(key)

export function assertObjectKey(key: string): string {
  if (!isObjectKey(key)) throw new Error(`not a valid object key: ${JSON.stringify(key)}`)
  return key
}
