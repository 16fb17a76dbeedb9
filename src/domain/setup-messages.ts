/**
 * The sensor setup area's messages (sensor-setup 5 and 8), each under the code the gateway
 * answers with when the same rule refuses a save. Where the spec names a rule without its
 * wording, the message is ours and says what to fix.
 */
export const SETUP_RULES = {
  NAME_EMPTY: 'The name should not be empty',
  NAME_TOO_LONG: 'The name is too long',
  NAME_LEADING_SPACE: 'The name should not start with a space',
  NAME_BAD_CHARACTERS: 'There are some unacceptable special characters in the name',
  OFFSET_EMPTY: 'The Offset cannot be empty',
  MIN_LEVEL_MISSING: 'Please enter the Minimum Water Level',
  MAX_LEVEL_MISSING: 'Please enter the Maximum Water Level',
  LIMITS_ORDER: 'The Minimum Water Level should be less than the Maximum Water Level',
  LIMITS_NEED_OFFSET: 'Display limits need an offset: turn the offset on first',
  CONVERSION_TOO_MANY: 'Only one conversion can be set',
  WIDTH_REQUIRED: 'Please enter the width',
  WIDTH_NOT_POSITIVE: 'The width must be greater than 0',
  WIDTH_TOO_BIG: 'The width is too big',
  FLOW_COEFFICIENT_REQUIRED: 'Please enter the flow coefficient',
  FLOW_COEFFICIENT_NOT_POSITIVE: 'The flow coefficient must be greater than 0',
  EXPONENT_INVALID: 'The exponent n must be 1.5 or 2.5',
  DIAMETER_REQUIRED: 'Please enter the diameter',
  DIAMETER_NOT_POSITIVE: 'The diameter must be greater than 0',
  DIAMETER_TOO_BIG: 'The diameter is too big',
  LENGTH_REQUIRED: 'Please enter the length',
  LENGTH_NOT_POSITIVE: 'The length must be greater than 0',
  LENGTH_TOO_BIG: 'The length is too big',
  FLUME_X_REQUIRED: 'Please enter x',
  FLUME_X_NOT_POSITIVE: 'x must be greater than 0',
  FLUME_X_TOO_BIG: 'x is too big',
  FLUME_Y_REQUIRED: 'Please enter y',
  FLUME_Y_NOT_POSITIVE: 'y must be greater than 0',
  FLUME_Y_TOO_BIG: 'y is too big',
  REFERENCE_LINES_TOO_MANY: 'At most 3 reference lines',
  LABEL_REQUIRED: 'Please enter a label',
  LABEL_TOO_LONG: 'The label is too long',
  VALUE_REQUIRED: 'Please enter a value',
  VALUE_DECIMALS: 'At most 3 decimals',
  COLOUR_INVALID: 'Choose a colour from the list',
  THRESHOLD_REQUIRED: 'Please input the threshold',
  THRESHOLD_OUT_OF_RANGE: "The value is out of the sensor's valid range",
  LOW_ABOVE_HIGH_DEPTH: 'The depth is bigger than the high level alarm',
  HIGH_BELOW_LOW_DEPTH: 'The depth is smaller than the low level alarm',
  LOW_ABOVE_HIGH_DISTANCE: 'The distance is bigger than the high level alarm',
  HIGH_BELOW_LOW_DISTANCE: 'The distance is smaller than the low level alarm',
  ALARM_SLOT_INVALID: 'This alarm slot does not exist on the sensor',
  ALARMS_NOT_EDITABLE: 'Alarms of this sensor are changed by remote task',
  ILLEGAL_COORDINATES: 'Illegal coordinates: latitude must be from -85.05115 to 85 and longitude from -180 to 180',
  COORDINATES_INCOMPLETE: 'Both latitude and longitude are needed',
  POINT_ID_TOO_LONG: 'The Point ID is too long',
  COMMISSIONING_STATUS_INVALID: 'Choose a commissioning status',
  SENSOR_NAME_EXISTS_IN_ORGANISATION: 'This sensor name already exists in your organisation, please choose a different sensor name.',
  INTEGRATION_POINT_ID_ALREADY_IN_USE: 'Point ID already in use by another sensor',
  FORECAST_DAYS_INVALID: 'Enter a whole number of days from 1 to 60',
  FORECAST_NEEDS_VOLUME: 'A forecast alarm needs a tank volume conversion: set the tank first',
} as const;

export type SetupRuleCode = keyof typeof SETUP_RULES;

const BY_MESSAGE = new Map<string, SetupRuleCode>(Object.entries(SETUP_RULES).map(([k, v]) => [v, k as SetupRuleCode]));

/** The code of a rule from its message (a zod issue carries the message). */
export const ruleCodeOf = (message: string): SetupRuleCode | undefined => BY_MESSAGE.get(message);

/** Tank form wording (sensor-setup 5, tank form). */
export const TANK_MESSAGES = {
  nameRequired: 'Give your sensor a name that makes it clear which tank it\'s on e.g. "Stock Tank"',
  nameTooLong: 'Your sensor name is too long, try something shorter like "Stock Tank"',
  nameBadSymbol: "There's a symbol in the name that we can't use.",
  heightRequired: 'You need to enter the height of the sensor from the bottom of the tank',
  positive: 'Measurement needs to be a positive number',
  heightTooBig: (maxM: number) => `Your HiLo sensor can only read up to a depth of ${maxM}m`,
  depthRequired: 'You need to enter the max water depth',
  depthBelowHeight: 'Max water depth must be less than the sensor height',
  diameterPositive: 'Diameter needs to be a positive number',
  volumePositive: 'Volume needs to be a positive number',
  tooBig: 'Volume is too big',
} as const;

/** Notices of the setup area (sensor-setup 8). */
export const SETUP_NOTICES = {
  sensorUpdated: 'Sensor updated.',
  tankFailed: 'Failed to update sensor, please check your internet connection and try again.',
  integrationUpdated: 'Integration settings updated.',
  somethingWrong: 'Something went wrong',
  locationFailed: 'Failed to update location',
  locationUpdated: 'Location updated.',
  displayUpdated: 'Display settings updated.',
  alarmsUpdated: 'Alarm settings updated.',
  forecastUpdated: 'Forecast alarm updated.',
} as const;
