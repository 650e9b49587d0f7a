import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * This package's folder (the one holding its package.json), for files shipped beside the code
 * (`assets/`). Found by walking up, because the code runs from `src/` under tsx and from the
 * bundled `dist/` in production, at different depths.
 */
export const PACKAGE_DIR = ((): string => {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir)
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`)
    dir = parent
  }
  return dir
})()
