export { createTestDatabase, testDatabaseKinds } from './test-database'
