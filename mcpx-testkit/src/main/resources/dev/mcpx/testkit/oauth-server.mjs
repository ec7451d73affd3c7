// oauth2-mock-server (a real OAuth 2 / OpenID Connect server) on a port the OS picks, for tests.
// argv[2]: the package folder. Prints one line per token response (with its grant type).
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

const { OAuth2Server } = await import(pathToFileURL(path.join(process.argv[2], 'dist', 'index.mjs')).href);
const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');
// a jti makes every token unique: two issued in the same second would otherwise be the same JWT
server.service.on('beforeTokenSigning', (token) => {
  token.payload.jti = randomUUID();
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
