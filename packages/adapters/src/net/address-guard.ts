import { BlockList, isIP, type LookupFunction } from 'node:net'
import { lookup } from 'node:dns/promises'

/**
 * Addresses an outgoing fetch of a user-supplied URL must never reach: loopback, private,
 * link-local, carrier-grade NAT, documentation, multicast and reserved ranges, and IPv6 forms
 * that embed an IPv4 address (IPv4-compatible, mapped, NAT64, 6to4, Teredo), which could
 * smuggle a private one.
 */
// Two lists: a BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules, and
// ::ffff:0:0/96 would then block every IPv4 address.
const BLOCKED_V4 = new BlockList()
const BLOCKED_V6 = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED_V4.addSubnet(net, prefix, 'ipv4')
}
for (const [net, prefix] of [
  // IPv4-compatible (deprecated): ::127.0.0.1 is ::7f00:1. Covers :: and ::1 too.
  ['::', 96],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // IETF protocol assignments: Teredo (2001::/32, which tunnels to an IPv4 address), benchmarking, ORCHID.
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED_V6.addSubnet(net, prefix, 'ipv6')
}

/** Whether an IP address is publicly routable (false for anything that is not an IP address). */
export const isPublicAddress = (address: string): boolean => {
  const family = isIP(address)
  if (family === 0) return false
  return family === 4 ? !BLOCKED_V4.check(address, 'ipv4') : !BLOCKED_V6.check(address, 'ipv6')
}

export type ResolvedAddress = { address: string; family: number }
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>

export const systemResolver: HostResolver = (host) => lookup(host, { all: true, verbatim: true })

/**
 * Which addresses a fetch may connect to. Production allows public addresses only; tests of
 * the fetching code inject a policy that lets 127.0.0.1 through.
 */
export type AddressPolicy = { allow: (address: string) => boolean; resolve: HostResolver }

export const publicAddressesOnly: AddressPolicy = { allow: isPublicAddress, resolve: systemResolver }

export class BlockedAddress extends Error {
  constructor(readonly host: string) {
    super(`refusing to fetch from ${host}: not a public address`)
  }
}

/**
 * Resolves `host` and checks every address it resolves to (one private address among public
 * ones is enough to refuse). Returns the addresses to connect to.
 */
export async function checkedAddresses(host: string, policy: AddressPolicy): Promise<ResolvedAddress[]> {
  const bare = host.replace(/^\[|\]$/g, '')
  const literal = isIP(bare)
  const addresses = literal !== 0 ? [{ address: bare, family: literal }] : await policy.resolve(bare)
  if (addresses.length === 0 || addresses.some((a) => !policy.allow(a.address))) throw new BlockedAddress(host)
  return addresses
}

/**
 * A lookup for node:http that answers only addresses `checkedAddresses` approved, so the
 * connection goes to an address that was checked (no second, unchecked DNS answer).
 */
export const guardedLookup =
  (policy: AddressPolicy): LookupFunction =>
  (hostname, options, callback) => {
    checkedAddresses(hostname, policy).then(
      (addresses) => {
        if (options.all) callback(null, addresses)
        else callback(null, addresses[0]!.address, addresses[0]!.family)
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    )
  }
