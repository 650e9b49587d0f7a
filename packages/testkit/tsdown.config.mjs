import { defineConfig } from 'tsdown'

/**
 * As the domain's (packages/domain/tsdown.config.mjs): the root, and the demo generator alone
 * (`@tutoring/testkit/demo`, for the CLI and adapters, which load no fast-check). The domain and
 * fast-check stay imports: they are peers, the caller's own copies.
 */
export default defineConfig({
  entry: ['src/index.ts', 'src/demo-marketplace.ts'],
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  fixedExtension: false,
  dts: true,
  sourcemap: false,
  clean: true,
})
