export { createTestDatabase, testDatabaseKinds } from './test-database'
export { SAMPLES, SAMPLE_TYPES, padded } from './media-samples'
