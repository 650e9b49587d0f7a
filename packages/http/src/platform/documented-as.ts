import { z } from '@hono/zod-openapi'

type Documented = { $ref: string; description?: string } | { anyOf: Array<{ $ref: string }>; description?: string }

/** A reference to one of the document's schemas, or to a property of one (`SearchRequest/properties/page`). */
export const schemaRef = (path: string): { $ref: string } => ({ $ref: `#/components/schemas/${path}` })

/**
 * A query parameter that `schema` parses exactly as before (its coercions and its messages),
 * documented as the named schema it reads into: a query string is text, so the parsing schema
 * takes `"3"` where the document, and a generated client, say the integer 3. The documenting
 * half accepts anything and reaches the document only (a pipe is documented by its input).
 */
export const documentedAs = <S extends z.ZodType>(documented: Documented, schema: S) =>
  z.unknown().optional().openapi(documented).pipe(schema)
