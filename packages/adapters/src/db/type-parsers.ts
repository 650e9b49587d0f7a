/**
 * One set of type choices for both drivers, so a row reads the same from PGlite and from a
 * server: int8 as number (ids stay far below 2^53), `date` as its `YYYY-MM-DD` text (a
 * Date object would shift by the process time zone), numeric as text (exact).
 */
export const PG_TYPE = { INT8: 20, DATE: 1082, NUMERIC: 1700 } as const

export const parseInt8 = (value: string): number => Number(value)
export const keepText = (value: string): string => value
