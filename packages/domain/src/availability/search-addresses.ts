import { ResultAsync, errAsync } from 'neverthrow'
import type { PostcodeParser } from '../schedule'
import { fieldError, type ValidationFailed } from '../shared'
import type { AddressDirectory, AddressMatch } from './ports'

/**
 * The addresses at a UK postcode, for address pickers. A malformed postcode is a 422 on
 * `field`; a well-formed one nobody knows answers an empty list.
 */
export function searchAddresses(
  deps: { postcodes: PostcodeParser; addresses: AddressDirectory },
  input: { postcode: string; field?: string },
): ResultAsync<AddressMatch[], ValidationFailed> {
  const parsed = deps.postcodes.parse(input.postcode)
  if (!parsed) return errAsync(fieldError(input.field ?? 'postcode', 'is not a valid UK postcode'))
  return ResultAsync.fromSafePromise(deps.addresses.addressesAt(parsed.postcode))
}
