/** `{ startYear: 1 }` with `{ startYear: 'start_year' }` -> `{ start_year: 1 }`, optionality kept. */
export type Renamed<F, M extends Record<string, string>> = { [K in keyof F & keyof M as M[K]]: F[K] }

/**
 * Domain fields to columns for inserts and patches alike: an absent field stays absent,
 * so a patch touches only the columns it names.
 */
export function toColumns<F extends object, const M extends { readonly [K in keyof Required<F>]: string }>(
  fields: F,
  names: M,
): Renamed<F, M> {
  const columns: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined && key in names) columns[names[key as keyof M]] = value
  }
  return columns as Renamed<F, M>
}
