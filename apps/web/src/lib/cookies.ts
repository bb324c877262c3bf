export function readCookie(name: string): string | null {
  const prefix = `${name}=`;
  const match = document.cookie.split('; ').find((part) => part.startsWith(prefix));
  return match ? decodeURIComponent(match.slice(prefix.length)) : null;
}

export function writeCookie(name: string, value: string, maxAgeS: number): void {
  // biome-ignore lint/suspicious/noDocumentCookie: a plain cookie is what the spec asks for (sidebar state).
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${maxAgeS}; samesite=lax`;
}
