// oauth2-mock-server (a real OAuth 2 / OpenID Connect server) on a port the OS picks, for tests.
// argv[2]: the package folder. Prints one line per token response (with its grant type).
// Tokens carry the requested resource (RFC 8707) as their audience, as a server that supports
// resource indicators issues them, and any claim_NAME=VALUE form field of the token request as a
// claim (an integer value as a number), so a test can ask for a profile claim, an expired token
// or a wrong issuer. A line "rotate" on stdin adds a signing key; tokens then use the keys in turn.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

const { OAuth2Server } = await import(pathToFileURL(path.join(process.argv[2], 'dist', 'index.mjs')).href);
const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');
// a jti makes every token unique: two issued in the same second would otherwise be the same JWT
server.service.on('beforeTokenSigning', (token, req) => {
  token.payload.jti = randomUUID();
  const body = (req && req.body) || {};
  if (body.resource && token.payload.aud === undefined) {
    token.payload.aud = body.resource;
  }
  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith('claim_')) {
      token.payload[key.slice('claim_'.length)] = /^-?\d+$/.test(value) ? Number(value) : value;
    }
  }
});
process.stdin.setEncoding('utf8');
process.stdin.on('data', async (text) => {
  if (text.split('\n').includes('rotate')) {
    const key = await server.issuer.keys.generate('RS256');
    console.log(`oauth: rotated, new key ${key.kid}`);
  }
});
server.service.on('beforeResponse', (response, req) => {
  const body = req.body || {};
  console.log(`oauth: token grant_type=${body.grant_type} status=${response.statusCode} resource=${body.resource || ''}`);
});
server.service.on('beforeAuthorizeRedirect', (redirect) => {
  console.log(`oauth: authorize redirect to ${redirect.url.origin}${redirect.url.pathname}`);
});
await server.start(0, '127.0.0.1');
console.log(`oauth: listening on ${server.issuer.url}`);
