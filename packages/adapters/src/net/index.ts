export { isPublicAddress, publicAddressesOnly, systemResolver, checkedAddresses, guardedLookup, BlockedAddress, type AddressPolicy, type HostResolver } from './address-guard'
