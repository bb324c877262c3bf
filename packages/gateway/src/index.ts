/**
 * The proxy engine (listeners, auth, targeting, routing, metering, limits) lands with the gateway issue.
 * Until then the server starts no proxy listeners.
 */
export const GATEWAY_ENGINE_READY = false;
