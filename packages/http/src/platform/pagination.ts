import { z } from '@hono/zod-openapi'

/** CONTRACT §1: `page` >= 1 (default 1), `per_page` 1..100 (default 15); out of range is a 422. */
export const paginationQuery = {
  page: z.coerce.number().int().min(1).default(1).openapi({ example: 1 }),
  per_page: z.coerce.number().int().min(1).max(100).default(15).openapi({ example: 15 }),
}

export type Page = { page: number; per_page: number }

export const pageMeta = z.object({
  current_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  last_page: z.number().int(),
})

export function paginate<T>(items: readonly T[], page: Page): { data: T[]; meta: z.infer<typeof pageMeta> } {
  const start = (page.page - 1) * page.per_page
  return { data: items.slice(start, start + page.per_page), meta: meta(items.length, page) }
}

export function meta(total: number, page: Page): z.infer<typeof pageMeta> {
  return {
    current_page: page.page,
    per_page: page.per_page,
    total,
    last_page: Math.max(1, Math.ceil(total / page.per_page)),
  }
}

export const listOf = <T extends z.ZodTypeAny>(item: T) => z.object({ data: z.array(item), meta: pageMeta })
export const one = <T extends z.ZodTypeAny>(item: T) => z.object({ data: item })
