/** The reference data every installation starts with. Seeding is idempotent. */
type Group = 'ACADEMIC' | 'PROFESSIONAL' | 'CUSTOM'

export const SUBJECT_LEVELS = [
  'Primary',
  'KS3',
  'GCSE',
  'A-Level',
  'IB',
  'University',
  'Adult Learner',
  'Professional',
] as const

const SCHOOL_LEVELS = ['Primary', 'KS3', 'GCSE', 'A-Level', 'IB', 'University', 'Adult Learner']
const SECONDARY_LEVELS = ['KS3', 'GCSE', 'A-Level', 'IB', 'University', 'Adult Learner']
const PROFESSIONAL_LEVELS = ['Adult Learner', 'Professional']

export const SUBJECTS: ReadonlyArray<{ title: string; group: Group; levels: readonly string[] }> = [
  { title: 'Mathematics', group: 'ACADEMIC', levels: SCHOOL_LEVELS },
  { title: 'English', group: 'ACADEMIC', levels: SCHOOL_LEVELS },
  { title: 'Physics', group: 'ACADEMIC', levels: SECONDARY_LEVELS },
  { title: 'Chemistry', group: 'ACADEMIC', levels: SECONDARY_LEVELS },
  { title: 'Biology', group: 'ACADEMIC', levels: SECONDARY_LEVELS },
  { title: 'Science', group: 'ACADEMIC', levels: ['Primary', 'KS3', 'GCSE'] },
  { title: 'History', group: 'ACADEMIC', levels: SECONDARY_LEVELS },
  { title: 'Geography', group: 'ACADEMIC', levels: SECONDARY_LEVELS },
  { title: 'French', group: 'ACADEMIC', levels: SCHOOL_LEVELS },
  { title: 'Spanish', group: 'ACADEMIC', levels: SCHOOL_LEVELS },
  { title: 'German', group: 'ACADEMIC', levels: SCHOOL_LEVELS },
  { title: 'Computer Science', group: 'ACADEMIC', levels: SECONDARY_LEVELS },
  { title: 'Economics', group: 'ACADEMIC', levels: ['GCSE', 'A-Level', 'IB', 'University'] },
  { title: 'Eleven Plus', group: 'ACADEMIC', levels: ['Primary'] },
  { title: 'Accounting', group: 'PROFESSIONAL', levels: PROFESSIONAL_LEVELS },
  { title: 'Business English', group: 'PROFESSIONAL', levels: PROFESSIONAL_LEVELS },
  { title: 'Programming', group: 'PROFESSIONAL', levels: PROFESSIONAL_LEVELS },
  { title: 'Data Analysis', group: 'PROFESSIONAL', levels: PROFESSIONAL_LEVELS },
  { title: 'Interview Preparation', group: 'PROFESSIONAL', levels: PROFESSIONAL_LEVELS },
  { title: 'Music Theory', group: 'CUSTOM', levels: SCHOOL_LEVELS },
  { title: 'Piano', group: 'CUSTOM', levels: SCHOOL_LEVELS },
  { title: 'Chess', group: 'CUSTOM', levels: SCHOOL_LEVELS },
]

export const EXAM_BOARDS = ['AQA', 'Edexcel', 'OCR', 'WJEC', 'CCEA', 'Cambridge International', 'SQA'] as const

export const LANGUAGES: ReadonlyArray<{ code: string; name: string }> = [
  ['en', 'English'],
  ['fr', 'French'],
  ['de', 'German'],
  ['es', 'Spanish'],
  ['it', 'Italian'],
  ['pt', 'Portuguese'],
  ['pl', 'Polish'],
  ['ro', 'Romanian'],
  ['ar', 'Arabic'],
  ['ur', 'Urdu'],
  ['hi', 'Hindi'],
  ['pa', 'Punjabi'],
  ['bn', 'Bengali'],
  ['gu', 'Gujarati'],
  ['ta', 'Tamil'],
  ['zh', 'Chinese'],
  ['ja', 'Japanese'],
  ['ko', 'Korean'],
  ['ru', 'Russian'],
  ['tr', 'Turkish'],
  ['cy', 'Welsh'],
  ['gd', 'Scottish Gaelic'],
  ['ga', 'Irish'],
].map(([code, name]) => ({ code: code!, name: name! }))

export const LESSON_LOCATIONS = [
  { id: 1, name: 'TUTORS_HOME', slug: 'tutors_home', title: "Tutor's home" },
  { id: 2, name: 'STUDENTS_HOME', slug: 'students_home', title: "Student's home" },
  { id: 3, name: 'ONLINE', slug: 'online', title: 'Online' },
] as const

export const CANCELLATION_POLICIES = [
  { hours_before_start: 24, refund_percent: 100 },
  { hours_before_start: 0, refund_percent: 50 },
] as const

export const LESSON_PRICE_SETTINGS = {
  min_hourly_rate_pence: 1000,
  max_hourly_rate_pence: 20000,
  default_hourly_rate_pence: 3000,
} as const

export const SERVICE_NOTICE = {
  title: 'Welcome to the tutoring marketplace',
  message: 'Book lessons up to 14 days ahead. Payments are taken when the lesson is confirmed.',
  severity: 'info',
} as const

export const SUBSCRIPTION_PLAN = {
  product_id: 'prod_tutor_membership',
  price_id: 'price_tutor_membership_monthly',
  trial_period_days: 30,
} as const

/** ISO 3166-1 alpha-2 codes; names come from the runtime's CLDR data (Intl.DisplayNames). */
export const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ ' +
  'BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM ' +
  'DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS ' +
  'GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN ' +
  'KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ ' +
  'MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
  'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV ' +
  'SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI ' +
  'VN VU WF WS YE YT ZA ZM ZW'
).split(' ')
