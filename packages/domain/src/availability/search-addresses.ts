import { ResultAsync, errAsync } from 'neverthrow'
import { fieldError, type PostcodeParser, type ValidationFailed } from '../shared'
import type { AddressDirectory, AddressMatch } from './ports'

/** An outward code, optionally with the start of the inward code: "SW1A", "SW1A 1", "M1 1A". */
const PARTIAL_POSTCODE = /^([A-Z]{1,2}[0-9][A-Z0-9]?)(?: ?([0-9][A-Z]?))?$/

export const ADDRESS_SEARCH_LIMIT = 20

/**
 * Address search for address pickers. A full postcode answers the addresses known there (or
 * the postcode itself with its coordinates when no address lines are known); a partial one
 * ("SW1A", "SW1A 1") answers up to 20 postcodes starting so. A well-formed postcode nobody
 * knows answers an empty list; anything else is a 422 on `field`.
 */
export function searchAddresses(
  deps: { postcodes: PostcodeParser; addresses: AddressDirectory },
  input: { postcode: string; field?: string },
): ResultAsync<AddressMatch[], ValidationFailed> {
  const parsed = deps.postcodes.parse(input.postcode)
  if (parsed) return ResultAsync.fromSafePromise(deps.addresses.addressesAt(parsed.postcode))
  const partial = PARTIAL_POSTCODE.exec(input.postcode.trim().toUpperCase().replace(/\s+/g, ' '))
  if (!partial) return errAsync(fieldError(input.field ?? 'postcode', 'is not a UK postcode or the start of one'))
  const prefix = partial[2] ? `${partial[1]} ${partial[2]}` : (partial[1] ?? '')
  return ResultAsync.fromSafePromise(deps.addresses.postcodesStartingWith(prefix, ADDRESS_SEARCH_LIMIT))
}
