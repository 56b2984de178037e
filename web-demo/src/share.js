// The share link: the editors' content as JSON, base64url-encoded (UTF-8) in the URL hash, #s=….
const PREFIX = '#s=';

export function encodeShare(data) {
  const bytes = new TextEncoder().encode(JSON.stringify({ v: 1, ...data }));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export function decodeShare(text) {
  const base64 = text.replaceAll('-', '+').replaceAll('_', '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  if (data === null || typeof data !== 'object' || data.v !== 1) throw new Error('not a link made by this demo (version 1)');
  return data;
}

/** The shared data in a hash, null if there is none; throws if it is there but broken. */
export function readHash(hash) {
  if (!hash.startsWith(PREFIX)) return null;
  return decodeShare(hash.slice(PREFIX.length));
}

export function linkFor(data) {
  const url = new URL(location.href);
  url.hash = `s=${encodeShare(data)}`;
  return url.href;
}
