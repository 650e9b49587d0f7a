export { straightLineTravel, estimateTravelMinutes, ROAD_FACTOR, AVERAGE_MPH } from './straight-line'
export { osrmTravel } from './osrm'
