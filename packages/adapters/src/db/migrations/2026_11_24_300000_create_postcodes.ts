import { sql, type Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * A small sample of real UK postcodes, so the offline geocoder knows the places the seed
 * data and tests use. Coordinates are the postcodes' approximate centroids (to about 100 m);
 * `pnpm cli postcodes:import` loads the whole ONS Postcode Directory over them.
 */
const SAMPLE: [postcode: string, lat: number, lng: number, city: string][] = [
  ['SW1A 1AA', 51.501009, -0.141588, 'London'],
  ['SW1A 2AA', 51.503396, -0.12764, 'London'],
  ['W1A 1AA', 51.518561, -0.143799, 'London'],
  ['WC2N 5DN', 51.508929, -0.128299, 'London'],
  ['EC1A 1BB', 51.520181, -0.097805, 'London'],
  ['NW1 2DB', 51.529952, -0.127001, 'London'],
  ['SE1 9SG', 51.507595, -0.099356, 'London'],
  ['E1 6AN', 51.519602, -0.075337, 'London'],
  ['SW7 2AZ', 51.498809, -0.174926, 'London'],
  ['M1 1AE', 53.481297, -2.237018, 'Manchester'],
  ['LS1 1AA', 53.799735, -1.549165, 'Leeds'],
  ['YO1 7HH', 53.962075, -1.081904, 'York'],
  ['B1 1BB', 52.477913, -1.906931, 'Birmingham'],
  ['BS1 5TR', 51.449255, -2.581406, 'Bristol'],
  ['CB2 1TN', 52.204268, 0.116835, 'Cambridge'],
  ['OX1 3BG', 51.754282, -1.254084, 'Oxford'],
  ['CF10 1EP', 51.481583, -3.179090, 'Cardiff'],
  ['EH1 1YZ', 55.950785, -3.187817, 'Edinburgh'],
]

export async function up(db: Kysely<any>): Promise<void> {
  // Postcode centroids (ONS Postcode Directory or a sample). `postcode` is normalised: upper
  // case, one space before the inward code.
  await db.schema
    .createTable('postcodes')
    .addColumn('postcode', 'text', (c) => c.primaryKey())
    .addColumn('outcode', 'text', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull().check(sql`lat between -90 and 90`))
    .addColumn('lng', 'double precision', (c) => c.notNull().check(sql`lng between -180 and 180`))
    .addColumn('city', 'text')
    .execute()
  // Prefix search ("SW1A 1", "SW1A") for address pickers.
  await sql`create index postcodes_prefix on postcodes (postcode text_pattern_ops)`.execute(db)

  // Optional address lines at a postcode, for address search; without any, search answers
  // the postcode itself.
  await db.schema
    .createTable('postcode_addresses')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('postcode', 'text', (c) => c.notNull().references('postcodes.postcode').onDelete('cascade'))
    .addColumn('line1', 'text', (c) => c.notNull())
    .addColumn('line2', 'text')
    .addColumn('city', 'text')
    .execute()
  await db.schema.createIndex('postcode_addresses_postcode').on('postcode_addresses').column('postcode').execute()

  await db
    .insertInto('postcodes')
    .values(SAMPLE.map(([postcode, lat, lng, city]) => ({ postcode, outcode: postcode.split(' ')[0], lat, lng, city })))
    .onConflict((oc) => oc.column('postcode').doNothing())
    .execute()
  await db
    .insertInto('postcode_addresses')
    .values([
      { postcode: 'SW1A 1AA', line1: 'Buckingham Palace', line2: null, city: 'London' },
      { postcode: 'SW1A 2AA', line1: '10 Downing Street', line2: null, city: 'London' },
    ])
    .execute()

  // A tutor's external calendar: an ICS feed whose events block availability.
  await db.schema.alterTable('profiles').addColumn('calendar_feed_url', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('calendar_feed_url').execute()
  await db.schema.dropTable('postcode_addresses').ifExists().execute()
  await db.schema.dropTable('postcodes').ifExists().execute()
}
