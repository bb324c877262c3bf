// The client's side of a SOCKS5 handshake (RFC 1928 greeting and request, RFC 1929 username/password)
// as pure, incremental parsers: each takes the bytes received so far and answers that it needs more,
// one message with the bytes it took, or a protocol error. They read only the prefix a message needs,
// never past what they are given, so the listener can call them again on every read and the fuzz
// targets can hold them to "any split of a stream reads as the whole stream".

/** What a parser makes of the bytes so far. */
export type Socks5Parsed<T> =
  | { kind: 'incomplete' }
  | { kind: 'message'; message: T; size: number }
  | { kind: 'error'; error: Socks5ProtocolError };

/**
 * Bytes that are not this protocol: the greeting's version is not 5, the RFC 1929 sub-negotiation's
 * is not 1, or a request's address type is none of IPv4, domain and IPv6 (its length is unknown).
 */
export type Socks5ProtocolError = 'BAD_VERSION' | 'BAD_AUTH_VERSION' | 'BAD_ADDRESS_TYPE';

/** VER 5, NMETHODS, METHODS. */
export interface Socks5Greeting {
  methods: number[];
}

/** RFC 1929: VER 1, ULEN, UNAME, PLEN, PASSWD; both read as UTF-8. */
export interface Socks5Credentials {
  username: string;
  password: string;
}

export const ADDRESS_IPV4 = 0x01;
export const ADDRESS_DOMAIN = 0x03;
export const ADDRESS_IPV6 = 0x04;

/**
 * VER, CMD, RSV, ATYP, DST.ADDR, DST.PORT. The version and command are answered as sent: the listener
 * refuses anything but 5 and CONNECT with its own REP code once the whole request is in.
 */
export interface Socks5Request {
  version: number;
  command: number;
  addressType: typeof ADDRESS_IPV4 | typeof ADDRESS_DOMAIN | typeof ADDRESS_IPV6;
  /** Dotted IPv4, eight full IPv6 groups (`0:0:0:0:0:0:0:1`), or the domain as latin1. */
  host: string;
  port: number;
}

const INCOMPLETE = { kind: 'incomplete' } as const;

function message<T>(value: T, size: number): Socks5Parsed<T> {
  return { kind: 'message', message: value, size };
}

function error(code: Socks5ProtocolError): Socks5Parsed<never> {
  return { kind: 'error', error: code };
}

export function parseGreeting(bytes: Buffer): Socks5Parsed<Socks5Greeting> {
  if (bytes.length < 2) {
    return INCOMPLETE;
  }
  if (bytes[0] !== 0x05) {
    return error('BAD_VERSION');
  }
  const size = 2 + (bytes[1] as number);
  if (bytes.length < size) {
    return INCOMPLETE;
  }
  return message({ methods: [...bytes.subarray(2, size)] }, size);
}

export function parseCredentials(bytes: Buffer): Socks5Parsed<Socks5Credentials> {
  if (bytes.length < 2) {
    return INCOMPLETE;
  }
  if (bytes[0] !== 0x01) {
    return error('BAD_AUTH_VERSION');
  }
  const usernameEnd = 2 + (bytes[1] as number);
  if (bytes.length < usernameEnd + 1) {
    return INCOMPLETE;
  }
  const size = usernameEnd + 1 + (bytes[usernameEnd] as number);
  if (bytes.length < size) {
    return INCOMPLETE;
  }
  return message(
    {
      username: bytes.toString('utf8', 2, usernameEnd),
      password: bytes.toString('utf8', usernameEnd + 1, size),
    },
    size,
  );
}

export function parseRequest(bytes: Buffer): Socks5Parsed<Socks5Request> {
  if (bytes.length < 4) {
    return INCOMPLETE;
  }
  const addressType = bytes[3] as number;
  let addressStart = 4;
  let addressEnd: number;
  if (addressType === ADDRESS_IPV4) {
    addressEnd = addressStart + 4;
  } else if (addressType === ADDRESS_IPV6) {
    addressEnd = addressStart + 16;
  } else if (addressType === ADDRESS_DOMAIN) {
    if (bytes.length < 5) {
      return INCOMPLETE;
    }
    addressStart = 5;
    addressEnd = addressStart + (bytes[4] as number);
  } else {
    return error('BAD_ADDRESS_TYPE');
  }
  const size = addressEnd + 2;
  if (bytes.length < size) {
    return INCOMPLETE;
  }
  const address = bytes.subarray(addressStart, addressEnd);
  const host =
    addressType === ADDRESS_IPV4
      ? [...address].join('.')
      : addressType === ADDRESS_IPV6
        ? ipv6Text(address)
        : address.toString('latin1');
  return message(
    {
      version: bytes[0] as number,
      command: bytes[1] as number,
      addressType,
      host,
      port: bytes.readUInt16BE(addressEnd),
    },
    size,
  );
}

function ipv6Text(bytes: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) {
    groups.push(bytes.readUInt16BE(i).toString(16));
  }
  return groups.join(':');
}
