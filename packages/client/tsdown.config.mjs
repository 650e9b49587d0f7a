import { defineConfig } from 'tsdown'

/**
 * As the domain's (packages/domain/tsdown.config.mjs): one ES module and its bundled declarations,
 * the generated types included; openapi-fetch stays an import.
 */
export default defineConfig({
  entry: ['src/index.ts'],
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  fixedExtension: false,
  dts: true,
  sourcemap: false,
  clean: true,
})
