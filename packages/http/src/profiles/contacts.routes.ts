import {
  addAddress,
  addMobileNumber,
  listAddresses,
  listMobileNumbers,
  listUserDevices,
  registerUserDevice,
  removeAddress,
  removeMobileNumber,
  removeUserDevice,
  updateAddress,
  updateMobileNumber,
  updateUserDevice,
} from '@tutoring/domain/profiles'
import { currentUser } from '../platform/auth'
import { paginate } from '../platform/pagination'
import { unwrap } from '../platform/respond'
import { mount, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'
import { createRoute, deleteRoute, listRoute, updateRoute } from './owned-routes'
import {
  AddressBody,
  AddressPatchBody,
  AddressSchema,
  MobileNumberBody,
  MobileNumberSchema,
  UserDeviceBody,
  UserDevicePatchBody,
  UserDeviceSchema,
  definedOnly,
  presentAddress,
  presentMobileNumber,
  presentUserDevice,
} from './profiles.schemas'

const tags = ['Profile']
const TUTOR_SYNC = "A tutor's change is copied to the payment processor through the outbox; the processor being down never fails the request."

/** Addresses, mobile numbers and push devices: how the service reaches a user. */
export function contactRoutes(app: App, services: Services): void {
  addressRoutes(app, services)
  mobileNumberRoutes(app, services)
  deviceRoutes(app, services)
}

function addressRoutes(app: App, services: Services): void {
  const deps = services.profiles

  mount(app, ['/api/v1/addresses'], listRoute(tags, 'Addresses', AddressSchema), async (c) => {
    const { user_id, ...page } = c.req.valid('query')
    const addresses = await unwrap(listAddresses(deps, currentUser(c), { userId: user_id }))
    return c.json(paginate(addresses.map(presentAddress), page), 200)
  })

  mount(
    app,
    ['/api/v1/addresses'],
    createRoute(
      tags,
      'Add an address',
      AddressBody,
      AddressSchema,
      `Fires AddressUpdated. A tutor holds at most one address: a tutor's new address replaces the old one. ${TUTOR_SYNC}`,
    ),
    async (c) => {
      const body = c.req.valid('json')
      const fields = { line1: body.line1, line2: body.line2 ?? null, city: body.city, postcode: body.postcode, country: body.country }
      const address = await unwrap(addAddress(deps, currentUser(c), { userId: c.req.valid('query').user_id, fields }))
      return c.json({ data: presentAddress(address) }, 201)
    },
  )

  mount(
    app,
    ['/api/v1/addresses/{id}'],
    updateRoute(tags, 'Change an address', AddressPatchBody, AddressSchema, `Fires AddressUpdated. ${TUTOR_SYNC}`),
    async (c) => {
      const input = { id: c.req.valid('param').id, patch: definedOnly(c.req.valid('json')) }
      return c.json({ data: presentAddress(await unwrap(updateAddress(deps, currentUser(c), input))) }, 200)
    },
  )

  mount(app, ['/api/v1/addresses/{id}'], deleteRoute(tags, 'Remove an address', `Fires AddressUpdated. ${TUTOR_SYNC}`), async (c) => {
    await unwrap(removeAddress(deps, currentUser(c), c.req.valid('param').id))
    return c.body(null, 204)
  })
}

function mobileNumberRoutes(app: App, services: Services): void {
  const deps = services.profiles
  const about = `Numbers are E.164. Fires MobileNumberUpdated: the processor holds a tutor's newest number. ${TUTOR_SYNC}`

  mount(app, ['/api/v1/mobile-numbers'], listRoute(tags, 'Mobile numbers', MobileNumberSchema), async (c) => {
    const { user_id, ...page } = c.req.valid('query')
    const numbers = await unwrap(listMobileNumbers(deps, currentUser(c), { userId: user_id }))
    return c.json(paginate(numbers.map(presentMobileNumber), page), 200)
  })

  mount(app, ['/api/v1/mobile-numbers'], createRoute(tags, 'Add a mobile number', MobileNumberBody, MobileNumberSchema, about), async (c) => {
    const input = { userId: c.req.valid('query').user_id, number: c.req.valid('json').number }
    return c.json({ data: presentMobileNumber(await unwrap(addMobileNumber(deps, currentUser(c), input))) }, 201)
  })

  mount(
    app,
    ['/api/v1/mobile-numbers/{id}'],
    updateRoute(tags, 'Change a mobile number', MobileNumberBody, MobileNumberSchema, about),
    async (c) => {
      const input = { id: c.req.valid('param').id, number: c.req.valid('json').number }
      return c.json({ data: presentMobileNumber(await unwrap(updateMobileNumber(deps, currentUser(c), input))) }, 200)
    },
  )

  mount(app, ['/api/v1/mobile-numbers/{id}'], deleteRoute(tags, 'Remove a mobile number', about), async (c) => {
    await unwrap(removeMobileNumber(deps, currentUser(c), c.req.valid('param').id))
    return c.body(null, 204)
  })
}

function deviceRoutes(app: App, services: Services): void {
  const deps = services.profiles
  const about =
    'A device is one app install and its push token; `{id}` is the device id. A token belongs to one user at a time: ' +
    'registering (or moving a device to) a token another user held takes it from them. ' +
    'GET, POST and DELETE fill a gap: SPEC lists only PUT, which needs a device to exist.'

  mount(app, ['/api/v1/user-devices'], listRoute(tags, 'Push devices', UserDeviceSchema, about), async (c) => {
    const { user_id, ...page } = c.req.valid('query')
    const devices = await unwrap(listUserDevices(deps, currentUser(c), { userId: user_id }))
    return c.json(paginate(devices.map(presentUserDevice), page), 200)
  })

  mount(
    app,
    ['/api/v1/user-devices'],
    createRoute(tags, 'Register a push device', UserDeviceBody, UserDeviceSchema, `${about} Registering a token again answers the same device.`),
    async (c) => {
      const body = c.req.valid('json')
      const input = { userId: c.req.valid('query').user_id, platform: body.platform, pushToken: body.push_token }
      return c.json({ data: presentUserDevice(await unwrap(registerUserDevice(deps, currentUser(c), input))) }, 201)
    },
  )

  mount(
    app,
    ['/api/v1/user-devices/{id}'],
    updateRoute(tags, "Update a device's push token", UserDevicePatchBody, UserDeviceSchema, about),
    async (c) => {
      const body = c.req.valid('json')
      const input = { id: c.req.valid('param').id, patch: definedOnly({ platform: body.platform, pushToken: body.push_token }) }
      return c.json({ data: presentUserDevice(await unwrap(updateUserDevice(deps, currentUser(c), input))) }, 200)
    },
  )

  mount(app, ['/api/v1/user-devices/{id}'], deleteRoute(tags, 'Unregister a push device', about), async (c) => {
    await unwrap(removeUserDevice(deps, currentUser(c), c.req.valid('param').id))
    return c.body(null, 204)
  })
}
