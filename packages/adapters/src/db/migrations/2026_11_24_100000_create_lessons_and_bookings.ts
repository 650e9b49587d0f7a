import { sql, type Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // A lesson: ACTIVE 1, RESCHEDULE 2, CANCELLED 0. `student_id` is whoever booked it (a
  // student, or a parent booking for children); times are instants.
  await db.schema
    .createTable('lessons')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tutor_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('student_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('teach_id', 'bigint', (c) => c.notNull().references('teaches.id'))
    .addColumn('subject_id', 'integer', (c) => c.notNull().references('subjects.id'))
    .addColumn('subject_level_id', 'integer', (c) => c.notNull().references('subject_levels.id'))
    .addColumn('exam_board_id', 'integer', (c) => c.references('exam_boards.id'))
    .addColumn('lesson_type', 'smallint', (c) => c.notNull().check(sql`lesson_type in (1, 2, 3)`))
    .addColumn('state', 'smallint', (c) => c.notNull().defaultTo(1).check(sql`state in (0, 1, 2)`))
    .addColumn('start_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finish_at', 'timestamptz', (c) => c.notNull())
    .addColumn('suggested_start_at', 'timestamptz')
    .addColumn('suggested_finish_at', 'timestamptz')
    .addColumn('proposed_by', 'bigint', (c) => c.references('users.id'))
    .addColumn('proposal_expires_at', 'timestamptz')
    // In-person lessons: where, {line1, line2, city, postcode, country, lat, lng}; travel
    // times to and from neighbouring lessons are worked out from it.
    .addColumn('address', 'jsonb')
    .addColumn('meeting_url', 'text')
    .addColumn('experience_rating', 'smallint', (c) => c.check(sql`experience_rating between 1 and 5`))
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('cancelled_by', 'bigint', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('lessons_order', sql`start_at < finish_at`)
    .addCheckConstraint(
      'lessons_suggestion_whole',
      sql`(suggested_start_at is null) = (suggested_finish_at is null) and (suggested_start_at is null or suggested_start_at < suggested_finish_at)`,
    )
    .execute()
  // The last line of defence against a double booking: two live lessons of one tutor never
  // overlap, whatever the application does. Buffers are the domain's to check.
  await sql`alter table lessons add constraint lessons_no_double_booking
    exclude using gist (tutor_id with =, tstzrange(start_at, finish_at, '[)') with &&) where (state <> 0)`.execute(db)
  await db.schema.createIndex('lessons_student').on('lessons').columns(['student_id', 'start_at']).execute()
  await sql`create index lessons_proposal_due on lessons (proposal_expires_at) where state = 2`.execute(db)

  await db.schema
    .createTable('lesson_children')
    .addColumn('lesson_id', 'bigint', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
    .addColumn('child_id', 'bigint', (c) => c.notNull().references('children.id'))
    .addPrimaryKeyConstraint('lesson_children_pk', ['lesson_id', 'child_id'])
    .execute()

  // A booking: REFUNDED 0, PAYED 1, AWAITING_PAYMENT 3, PARTIAL_REFUNDED 4, REQUIRES_CAPTURE 5.
  // The price is fixed when booked, in pence.
  await db.schema
    .createTable('bookings')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('lesson_id', 'bigint', (c) => c.notNull().unique().references('lessons.id'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('state', 'smallint', (c) => c.notNull().defaultTo(3).check(sql`state in (0, 1, 3, 4, 5)`))
    .addColumn('hold_expires_at', 'timestamptz')
    .addColumn('lesson_price_pence', 'integer', (c) => c.notNull().check(sql`lesson_price_pence >= 0`))
    .addColumn('service_fee_pence', 'integer', (c) => c.notNull().check(sql`service_fee_pence >= 0`))
    .addColumn('discount_pence', 'integer', (c) => c.notNull().defaultTo(0).check(sql`discount_pence >= 0`))
    .addColumn('total_pence', 'integer', (c) => c.notNull().check(sql`total_pence >= 0`))
    .addColumn('refunded_pence', 'integer', (c) => c.notNull().defaultTo(0).check(sql`refunded_pence >= 0`))
    .addColumn('coupon_uid', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('bookings_refund_within_total', sql`refunded_pence <= total_pence`)
    .execute()
  await db.schema.createIndex('bookings_user').on('bookings').columns(['user_id', 'created_at']).execute()
  await sql`create index bookings_hold_due on bookings (hold_expires_at) where state = 3`.execute(db)

  // What happened to a booking, in order: the detail view's timeline.
  await db.schema
    .createTable('booking_events')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('booking_id', 'bigint', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('booking_events_booking').on('booking_events').columns(['booking_id', 'id']).execute()

  // One processor payment (PaymentIntent) of a booking. Status mirrors the processor's.
  await db.schema
    .createTable('payments')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('booking_id', 'bigint', (c) => c.notNull().references('bookings.id'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('processor_payment_intent_id', 'text', (c) => c.unique())
    .addColumn('processor_payment_method_id', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`status in ('requires_payment_method', 'requires_confirmation', 'requires_action', 'processing', 'requires_capture', 'succeeded', 'canceled', 'scheduled')`,
        ),
    )
    .addColumn('amount_pence', 'integer', (c) => c.notNull().check(sql`amount_pence >= 0`))
    .addColumn('captured_pence', 'integer', (c) => c.notNull().defaultTo(0).check(sql`captured_pence >= 0`))
    .addColumn('refunded_pence', 'integer', (c) => c.notNull().defaultTo(0).check(sql`refunded_pence >= 0`))
    .addColumn('client_secret', 'text')
    .addColumn('redirect_url', 'text')
    // When to authorise a lesson too far out for a card hold to last (see payments).
    .addColumn('authorize_at', 'timestamptz')
    .addColumn('capture_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('payments_booking').on('payments').column('booking_id').execute()
  await sql`create index payments_capture_due on payments (capture_at) where status = 'requires_capture'`.execute(db)
  await sql`create index payments_authorize_due on payments (authorize_at) where status = 'scheduled'`.execute(db)

  // Replays of mutating POSTs (CONTRACT §6): one row per user and key, kept 24 h or more.
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response_status', 'smallint')
    .addColumn('response_body', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute()
  await db.schema.createIndex('idempotency_keys_age').on('idempotency_keys').column('created_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['idempotency_keys', 'payments', 'booking_events', 'bookings', 'lesson_children', 'lessons']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
