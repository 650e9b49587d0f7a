import { type Eligibility, searchEligibility, type TutorSnapshot } from '@tutoring/domain/search'

// What search knows of a tutor: profile, checks, subscription, schedule, holidays and location.
const tutor: TutorSnapshot = {
  profile: { hasPicture: true, hasVideo: true, bio: 'GCSE and A-level maths', hasAddress: true, hasMobile: true },
  verifications: { identity: 'PASS', dbs: 'PASS', qualification: 'PASS' },
  subscriptionStatus: 'active',
  isVisible: true,
  schedule: [{ day: 'MONDAY', slots: [{ from: '16:00', to: '20:00' }], lessonTypes: ['online', 'tutors_home'], bufferMinutes: 0 }],
  holidays: [{ startDate: '2030-01-14', endDate: '2030-01-20' }],
  // Manchester, travelling up to 5 miles.
  location: { lat: 53.4808, lng: -2.2426, travelDistanceMiles: 5 },
}
const show = (label: string, answer: Eligibility) =>
  console.log(`${label}: ${answer.eligible ? 'eligible' : answer.reasons.join(', ')}`)

// `today` is London's date; `date`, a lesson type and the student's place narrow the search.
show('online on Monday 7th', searchEligibility(tutor, { today: '2030-01-04', date: '2030-01-07', lessonType: 'online' }))
show('online on Monday 14th', searchEligibility(tutor, { today: '2030-01-04', date: '2030-01-14', lessonType: 'online' }))
show('students_home on Tuesday', searchEligibility(tutor, { today: '2030-01-04', date: '2030-01-08', lessonType: 'students_home' }))
// Liverpool is about 30 miles away.
const fromLiverpool = { today: '2030-01-04', lessonType: 'tutors_home', studentLocation: { lat: 53.4084, lng: -2.9916 } } as const
show('tutors_home from Liverpool', searchEligibility(tutor, fromLiverpool))
show('after the subscription lapsed', searchEligibility({ ...tutor, subscriptionStatus: 'incomplete_expired' }, { today: '2030-01-04' }))
