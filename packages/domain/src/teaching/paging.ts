/** One page of a list, asked for by number (CONTRACT §1: `page` from 1, `per_page` 1..100). */
export type PageRequest = { page: number; perPage: number }
export type PageOf<T> = { items: T[]; total: number }

export const pageOffset = (page: PageRequest): number => (page.page - 1) * page.perPage
