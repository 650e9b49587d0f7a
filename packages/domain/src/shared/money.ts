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
