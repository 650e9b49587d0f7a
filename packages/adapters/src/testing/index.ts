export { createEmptyServerDatabase, createTestDatabase, testDatabaseKinds } from './test-database'
export { SAMPLES, SAMPLE_TYPES, padded } from './media-samples'
export { startLocalS3, type LocalS3 } from './local-s3'
export { analyzeDatabase, explainTutorSearch } from './explain-search'
