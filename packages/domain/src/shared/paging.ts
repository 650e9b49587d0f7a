/** A page of a list, asked for and answered (the edge turns it into `meta`). */
export type PageRequest = { page: number; perPage: number }
export type PageOf<T> = { items: T[]; total: number }
