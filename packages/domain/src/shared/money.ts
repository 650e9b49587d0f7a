/** Money is integer minor units (pence) everywhere; strings only at the edge. */
export type Pence = number

/** Rounds a non-negative rational amount of pence half up to a whole penny. */
export const roundHalfUp = (numerator: number, denominator: number): Pence => {
  if (!Number.isInteger(numerator) || !Number.isInteger(denominator) || denominator <= 0) {
    throw new RangeError('roundHalfUp takes integers and a positive denominator')
  }
  const sign = numerator < 0 ? -1 : 1
  const abs = Math.abs(numerator)
  return sign * Math.floor((abs * 2 + denominator) / (denominator * 2))
}

/** 2500 -> "25.00"; -5 -> "-0.05". */
export const formatPence = (pence: Pence): string => {
  const sign = pence < 0 ? '-' : ''
  const abs = Math.abs(pence)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** "25.00" or "25" or "25.5" -> 2550; anything else -> undefined. */
export const parsePounds = (text: string): Pence | undefined => {
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text)
  if (!match) return undefined
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'))
}

export const CURRENCY = { code: 'GBP', sign: '£', displayFormat: '£{amount}' } as const

/**
 * A percentage (up to two decimals, e.g. 12.5) as integer basis points, so percentages stay
 * exact integer arithmetic. More decimals than two is a configuration bug.
 */
export const basisPoints = (percent: number): number => {
  const points = Math.round(percent * 100)
  if (!Number.isFinite(percent) || Math.abs(points - percent * 100) > 1e-6 || points < 0) {
    throw new RangeError(`percentages take at most two decimals and no sign: ${percent}`)
  }
  return points
}

/** `percent` % of an amount of pence, rounded half up to the penny. */
export const percentOf = (amount: Pence, percent: number): Pence =>
  roundHalfUp(amount * basisPoints(percent), 10_000)
