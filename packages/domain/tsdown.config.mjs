import { defineConfig } from 'tsdown'

/**
 * The package as other teams install it: one ES module and one bundled declaration file per
 * entry (the root and each context's index), so the declarations hold no extensionless relative
 * import that NodeNext resolution would refuse. Code shared by several contexts goes to chunks.
 */
export default defineConfig({
  entry: ['src/index.ts', 'src/*/index.ts'],
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  fixedExtension: false,
  dts: true,
  sourcemap: false,
  clean: true,
})
