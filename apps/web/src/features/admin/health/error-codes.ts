/** The gateway's refusal and failure codes as staff read them (the code itself is shown beside). */
const CODE_LABELS: Record<string, string> = {
  NO_USER: 'Wrong credentials or inactive plan',
  TRAFFIC_EXHAUSTED: 'No traffic left',
  THREADS_EXHAUSTED: 'Thread limit reached',
  UNKNOWN_PARAM: 'Unknown login parameter',
  DUPLICATE_PARAM: 'Repeated login parameter',
  INVALID_VALUE: 'Bad login parameter value',
  PARAM_CONFLICT: 'Conflicting login parameters',
  PARAM_REQUIRES_COUNTRY: 'Location without a country',
  NO_RAY: 'No exit matches the targeting',
  PORT_BLOCKED: 'Blocked port',
  HOST_BLOCKED: 'Blocked host',
  PRIVATE_TARGET: 'Private or loopback target',
  NO_HOST_CONNECTION: 'Target unreachable',
  BAD_REQUEST: 'Malformed request',
  HEAD_TOO_LARGE: 'Request head too large',
  TOO_MANY_CONNECTIONS: 'Too many unauthenticated connections',
  OVERLOADED: 'Gateway shedding load',
};

export function errorCodeLabel(code: string): string {
  return CODE_LABELS[code] ?? code;
}
