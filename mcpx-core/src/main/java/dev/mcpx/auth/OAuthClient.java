package dev.mcpx.auth;

import dev.mcpx.auth.AuthHttp.Answer;
import dev.mcpx.auth.AuthHttp.AuthFailure;
import dev.mcpx.auth.Discovery.AuthorizationServer;
import dev.mcpx.auth.Discovery.ProtectedResource;
import dev.mcpx.protocol.AuthorizationRequiredException;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.NeedsLoginException;
import dev.mcpx.transport.HttpAuthorization;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OAuth client of one protected MCP server (the MCP authorization spec, both revisions):
 * it authorizes the upstream's requests with its token and, when the upstream refuses them,
 * renews the token once for all the requests that were refused it: a refresh when it has a
 * refresh token, else a new authorization (discovery, client identity, the authorization code
 * flow with PKCE, client credentials, a JWT bearer grant for a workload or for an enterprise's
 * user), a step-up on {@code insufficient_scope}. Client authentication by secret or by
 * {@code private_key_jwt} assertion (RFC 7523); tokens DPoP-bound (RFC 9449) where the
 * authorization server offers it, with the nonces either server asks for.
 *
 * <p>Without an {@link AuthorizationStep} (a gateway serving hosts) nothing asks the user: what
 * would need them is a {@link NeedsLoginException}, and a login elsewhere (another process
 * writing the same {@link TokenStore}) is picked up on the next refusal.
 */
public final class OAuthClient implements HttpAuthorization {

    private static final Logger log = LoggerFactory.getLogger(OAuthClient.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    static final String JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
    static final String ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
    static final String ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";

    private final String name;
    private final URI server;
    private final OAuthSettings settings;
    private final TokenStore store;
    private final AuthorizationStep step;
    private final String loginHint;
    private final AuthHttp http = new AuthHttp();
    private final Discovery discovery = new Discovery(http);
    private final ReentrantLock renewing = new ReentrantLock();
    /** Scope sets already stepped up to: the same challenge again means the server will not grant it. */
    private final Set<String> steppedUpTo = ConcurrentHashMap.newKeySet();
    private volatile Tokens tokens;
    private volatile boolean loaded;
    /** The DPoP nonce the MCP server asked for last (RFC 9449 section 9); null until it asks. */
    private volatile String resourceNonce;
    /** The DPoP nonces authorization servers asked for, by token endpoint origin (section 8). */
    private final Map<String, String> serverNonces = new ConcurrentHashMap<>();
    /** The key of this process's next DPoP-bound tokens, until stored tokens bring their own. */
    private DpopKey newKey;

    private OAuthClient(Builder builder) {
        this.name = builder.name;
        this.server = builder.server;
        this.settings = builder.settings;
        this.store = builder.store;
        this.step = builder.step;
        this.loginHint = builder.loginHint;
    }

    /** The client for the MCP server at {@code server} (its URL as configured). */
    public static Builder builder(URI server) {
        return new Builder(server);
    }

    @Override
    public Map<String, String> headers(String httpMethod, URI uri) {
        Tokens current = current();
        if (current == null) {
            return Map.of();
        }
        if (!current.bound()) {
            return Map.of("Authorization", current.authorization());
        }
        return Map.of("Authorization", current.authorization(),
                "DPoP", current.dpopKey().proof(httpMethod, uri, current.accessToken(), resourceNonce));
    }

    /** The MCP server wants a DPoP nonce in the proofs of a bound token: keep the one it gave. */
    @Override
    public boolean adoptNonce(AuthorizationRequiredException refused) {
        Tokens current = current();
        if (current == null || !current.bound() || refused.dpopNonce() == null) {
            return false;
        }
        resourceNonce = refused.dpopNonce();
        log.debug("{}: the upstream asked for a DPoP nonce; retrying with it", name);
        return true;
    }

    @Override
    public void nonceOffered(String nonce) {
        if (!nonce.isBlank()) {
            resourceNonce = nonce;
        }
    }

    /** Whether a token is stored for this server (it may still have expired). */
    public boolean hasTokens() {
        return current() != null;
    }

    /** Forgets this server's tokens (the registered client stays: it belongs to the authorization server). */
    public void logout() {
        renewing.lock();
        try {
            store.remove(tokensKey());
            tokens = null;
            loaded = true;
        } finally {
            renewing.unlock();
        }
    }

    @Override
    public void renew(AuthorizationRequiredException refused) {
        renewing.lock();
        try (TokenStore.Lease lease = store.renewal(tokensKey())) {
            // another request or process renewed it meanwhile, or a login elsewhere stored a new one
            Tokens stored = reload();
            if (stored != null && !stored.authorization().equals(refused.sentAuthorization())) {
                return;
            }
            Challenge challenge = Challenge.parse(refused.challenge());
            log.debug("{}: HTTP {} for a request {}", name, refused.status(),
                    refused.carriedCredentials() ? "with the current token" : "without a token");
            if (refused.status() == 403 || challenge.insufficientScope()) {
                stepUp(challenge, stored);
                return;
            }
            String refreshFailed = null;
            if (stored != null && stored.refreshToken() != null) {
                try {
                    if (refresh(stored, challenge)) {
                        return;
                    }
                } catch (AuthFailure e) {
                    refreshFailed = e.getMessage();
                    log.info("{}: refreshing the access token failed: {}", name, refreshFailed);
                }
            }
            if (refreshFailed != null && step == null && !settings.grant().unattended()) {
                throw new AuthFailure("needs an OAuth login (refreshing the token failed: " + refreshFailed + ")", null);
            }
            authorize(challenge, null);
        } catch (AuthFailure e) {
            throw new NeedsLoginException(name + ": " + e.getMessage() + (loginHint == null ? "" : "; " + loginHint), e);
        } finally {
            renewing.unlock();
        }
    }

    private void stepUp(Challenge challenge, Tokens stored) throws AuthFailure {
        String previous = stored == null ? null : stored.requestedScope();
        Set<String> wanted = new TreeSet<>(words(previous));
        wanted.addAll(words(challenge.scope()));
        if (!steppedUpTo.add(String.join(" ", wanted))) {
            throw new AuthFailure("the upstream still refuses with insufficient_scope after authorizing scope \""
                    + String.join(" ", wanted) + "\"; not asking again", null);
        }
        log.info("{}: upstream wants scope {}; authorizing again", name, challenge.scope());
        authorize(challenge, previous);
    }

    private boolean refresh(Tokens stored, Challenge challenge) throws AuthFailure {
        Optional<ProtectedResource> resource = discovery.protectedResource(server, challenge);
        String issuer = issuerOf(resource);
        if (!Objects.equals(issuer, stored.issuer())) {
            log.info("{}: the upstream moved from authorization server {} to {}; authorizing there", name,
                    stored.issuer(), issuer);
            return false;
        }
        AuthorizationServer as = metadataOf(issuer);
        ClientIdentity client = storedClient(as);
        if (client == null) {
            return false;
        }
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "refresh_token");
        form.put("refresh_token", stored.refreshToken());
        form.put("resource", resourceOf(resource));
        // a public client's refresh token is bound to the key of its access token (RFC 9449 section 5)
        DpopKey key = stored.dpopKey() != null ? stored.dpopKey() : dpopKey(as);
        Answer answer = tokenRequest(as.tokenEndpoint(), as.issuer(), client, form, key);
        Tokens fresh = answer.ok() ? Tokens.fromAnswer(answer.body(), stored.requestedScope(), issuer,
                stored.refreshToken(), key) : null;
        if (fresh == null) {
            store.remove(tokensKey());
            tokens = null;
            throw new AuthFailure("the authorization server refused the refresh: " + answer.error(), null);
        }
        save(fresh);
        log.info("{}: access token refreshed", name);
        return true;
    }

    private void authorize(Challenge challenge, String previousScope) throws AuthFailure {
        if (step == null && !settings.grant().unattended()) {
            throw new AuthFailure("needs an OAuth login", null);
        }
        Optional<ProtectedResource> resource = discovery.protectedResource(server, challenge);
        String issuer = issuerOf(resource);
        AuthorizationServer as = resource.isPresent() ? metadataOf(issuer) : Discovery.defaultEndpoints(server);
        String scope = scope(challenge, resource, as, previousScope);
        String resourceParam = resourceOf(resource);
        switch (settings.grant()) {
            case CLIENT_CREDENTIALS -> clientCredentials(as, scope, resourceParam);
            case JWT_BEARER -> jwtBearer(as, assertion(), scope, resourceParam);
            case ENTERPRISE_MANAGED -> jwtBearer(as, identityAssertionGrant(as, scope, resourceParam), scope, resourceParam);
            case AUTHORIZATION_CODE -> codeFlow(as, scope, resourceParam);
        }
    }

    private void codeFlow(AuthorizationServer as, String scope, String resource) throws AuthFailure {
        if (as.authorizationEndpoint() == null) {
            throw new AuthFailure("the authorization server " + as.issuer() + " publishes no authorization_endpoint", null);
        }
        if (!as.codeChallengeMethods().contains("S256")) {
            throw new AuthFailure("the authorization server " + as.issuer() + " does not advertise PKCE S256"
                    + " (code_challenge_methods_supported " + as.codeChallengeMethods() + "): refused", null);
        }
        URI redirect = step.redirectUri();
        ClientIdentity client = client(as, redirect);
        String verifier = random(32);
        String state = random(16);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", client.clientId());
        query.put("redirect_uri", redirect.toString());
        query.put("state", state);
        query.put("code_challenge", challengeOf(verifier));
        query.put("code_challenge_method", "S256");
        query.put("scope", scope);
        query.put("resource", resource);
        URI authorizationUrl = withQuery(as.authorizationEndpoint(), query);
        Map<String, String> back = queryOf(step.authorize(authorizationUrl));
        if (back.containsKey("error")) {
            throw new AuthFailure("the authorization server answered " + back.get("error")
                    + (back.containsKey("error_description") ? ": " + back.get("error_description") : ""), null);
        }
        if (!state.equals(back.get("state"))) {
            throw new AuthFailure("the authorization response's state does not match the request's: refused", null);
        }
        // RFC 9207: a present iss is compared exactly; an advertised one must be present
        String iss = back.get("iss");
        if (iss != null && !iss.equals(as.issuer())) {
            throw new AuthFailure("the authorization response came from issuer " + iss + ", not " + as.issuer()
                    + ": refused (RFC 9207)", null);
        }
        if (iss == null && as.issParameterSupported()) {
            throw new AuthFailure("the authorization server advertises the iss parameter but its response has none:"
                    + " refused (RFC 9207)", null);
        }
        String code = back.get("code");
        if (code == null) {
            throw new AuthFailure("the authorization response carries no code", null);
        }
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", redirect.toString());
        form.put("code_verifier", verifier);
        form.put("resource", resource);
        exchange(as, client, form, scope);
    }

    private void clientCredentials(AuthorizationServer as, String scope, String resource) throws AuthFailure {
        ClientIdentity client = client(as, null);
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "client_credentials");
        form.put("scope", scope);
        form.put("resource", resource);
        exchange(as, client, form, scope);
    }

    /**
     * The JWT bearer grant (RFC 7523 section 2.1): the assertion says who is asking, so a client
     * is authenticated only when one is configured. A refusal is final: it surfaces, with no
     * retry and no other grant tried.
     */
    private void jwtBearer(AuthorizationServer as, String assertion, String scope, String resource) throws AuthFailure {
        ClientIdentity client = settings.clientId() == null ? ClientIdentity.ANONYMOUS : client(as, null);
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", JWT_BEARER);
        form.put("assertion", assertion);
        form.put("scope", scope);
        form.put("resource", resource);
        exchange(as, client, form, scope);
    }

    /**
     * Enterprise-managed authorization, first step: the user's ID token exchanged at the
     * identity provider (RFC 8693) for an identity assertion authorization grant (ID-JAG) for
     * this authorization server and resource.
     */
    private String identityAssertionGrant(AuthorizationServer as, String scope, String resource) throws AuthFailure {
        IdentityProvider idp = settings.identityProvider();
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", TOKEN_EXCHANGE);
        form.put("requested_token_type", ID_JAG);
        form.put("audience", as.issuer());
        form.put("resource", resource);
        form.put("scope", scope);
        form.put("subject_token", assertion());
        form.put("subject_token_type", ID_TOKEN);
        Map<String, String> headers = new HashMap<>();
        new ClientIdentity(idp.clientId(), idp.clientSecret(), idp.clientSecret() == null ? "none" : "client_secret_basic")
                .authenticate(form, headers, null);
        Answer answer = http.postForm(idp.tokenEndpoint(), form, headers);
        String grant = answer.ok() ? Json.text(answer.body(), "access_token") : null;
        if (grant == null) {
            throw new AuthFailure("the token exchange at the identity provider " + idp.tokenEndpoint() + " failed: "
                    + answer.error(), null);
        }
        String issuedType = Json.text(answer.body(), "issued_token_type");
        if (issuedType != null && !issuedType.equals(ID_JAG)) {
            throw new AuthFailure("the identity provider issued a " + issuedType + ", not an ID-JAG", null);
        }
        log.debug("{}: the identity provider issued an ID-JAG for {}", name, as.issuer());
        return grant;
    }

    private String assertion() throws AuthFailure {
        try {
            String value = settings.assertion().read();
            if (value == null || value.isBlank()) {
                throw new AuthFailure("the identity assertion is empty", null);
            }
            return value;
        } catch (UncheckedIOException e) {
            throw new AuthFailure(e.getMessage(), e);
        }
    }

    private void exchange(AuthorizationServer as, ClientIdentity client, Map<String, String> form, String scope)
            throws AuthFailure {
        DpopKey key = dpopKey(as);
        Answer answer = tokenRequest(as.tokenEndpoint(), as.issuer(), client, form, key);
        Tokens fresh = answer.ok() ? Tokens.fromAnswer(answer.body(), scope, as.issuer(), null, key) : null;
        if (fresh == null) {
            throw new AuthFailure("the token request to " + as.tokenEndpoint() + " failed: " + answer.error(), null);
        }
        save(fresh);
        log.info("{}: authorized by {}{}{}", name, as.issuer(), scope == null ? "" : " for scope " + scope,
                fresh.bound() ? " (DPoP-bound)" : "");
    }

    /**
     * One token request, authenticated afresh each time it is sent; with a DPoP proof when
     * {@code key} is given, sent once more with the nonce the server asks for (RFC 9449 section 8),
     * never twice.
     */
    private Answer tokenRequest(URI endpoint, String issuer, ClientIdentity client, Map<String, String> form,
                                DpopKey key) throws AuthFailure {
        Answer answer = postToken(endpoint, issuer, client, form, key);
        if (key != null && answer.status() == 400 && "use_dpop_nonce".equals(Json.text(answer.body(), "error"))
                && answer.headers().firstValue("DPoP-Nonce").isPresent()) {
            log.debug("{}: the authorization server asked for a DPoP nonce; asking again with it", name);
            answer = postToken(endpoint, issuer, client, form, key);
        }
        return answer;
    }

    private Answer postToken(URI endpoint, String issuer, ClientIdentity client, Map<String, String> form, DpopKey key)
            throws AuthFailure {
        Map<String, String> body = new LinkedHashMap<>(form);
        Map<String, String> headers = new HashMap<>();
        client.authenticate(body, headers, issuer);
        String origin = Discovery.origin(endpoint).toString();
        if (key != null) {
            headers.put("DPoP", key.proof("POST", endpoint, null, serverNonces.get(origin)));
        }
        Answer answer = http.postForm(endpoint, body, headers);
        answer.headers().firstValue("DPoP-Nonce").ifPresent(nonce -> serverNonces.put(origin, nonce));
        return answer;
    }

    /** The key to bind new tokens from {@code as} to, or null for bearer tokens. */
    private DpopKey dpopKey(AuthorizationServer as) {
        boolean use = switch (settings.dpop()) {
            case ALWAYS -> true;
            case NEVER -> false;
            case WHEN_ADVERTISED -> as.dpopSigningAlgorithms().contains(DpopKey.ALGORITHM);
        };
        if (!use) {
            return null;
        }
        Tokens current = tokens;
        if (current != null && current.dpopKey() != null) {
            return current.dpopKey();
        }
        if (newKey == null) {
            newKey = DpopKey.generate();
        }
        return newKey;
    }

    /**
     * The scope to ask for: the challenge's, else the configured one, else the resource's
     * {@code scopes_supported}, else none; on a step-up, joined with what was asked before;
     * {@code offline_access} added where the authorization server lists it (for a refresh token).
     */
    private String scope(Challenge challenge, Optional<ProtectedResource> resource, AuthorizationServer as,
                         String previous) {
        Set<String> scopes = new LinkedHashSet<>(words(previous));
        if (challenge.scope() != null) {
            scopes.addAll(words(challenge.scope()));
        } else if (previous == null && !settings.scopes().isEmpty()) {
            scopes.addAll(settings.scopes());
        } else if (previous == null && resource.isPresent()) {
            scopes.addAll(resource.get().scopesSupported());
        }
        if (!settings.grant().unattended() && as.scopesSupported().contains("offline_access")) {
            scopes.add("offline_access");
        }
        return scopes.isEmpty() ? null : String.join(" ", scopes);
    }

    /**
     * The client to be at {@code as}: the configured one (when it belongs there), one registered
     * there before, the client ID metadata document where the server takes them, else a new
     * dynamic registration. Kept per issuer: a client is never shown to another server.
     */
    private ClientIdentity client(AuthorizationServer as, URI redirect) throws AuthFailure {
        ClientIdentity known = storedClient(as);
        if (known != null) {
            return known;
        }
        if (as.clientIdMetadataDocuments() && settings.clientMetadataUrl() != null) {
            return new ClientIdentity(settings.clientMetadataUrl(), null, "none");
        }
        if (as.registrationEndpoint() == null) {
            throw new AuthFailure("the authorization server " + as.issuer() + " offers no dynamic client registration"
                    + " and no client is configured for it: set oauth.client_id (and client_secret)", null);
        }
        ClientIdentity registered = register(as, redirect);
        store.write(clientKey(as.issuer()), registered.toJson());
        return registered;
    }

    /** The configured client when it belongs at {@code as}, else one registered there before, else null. */
    private ClientIdentity storedClient(AuthorizationServer as) {
        if (settings.clientId() != null && (settings.issuer() == null || settings.issuer().equals(as.issuer()))) {
            String method = settings.tokenEndpointAuthMethod();
            if (method == null) {
                method = settings.clientSecret() == null ? "none"
                        : as.tokenEndpointAuthMethods().contains("client_secret_basic") ? "client_secret_basic"
                        : "client_secret_post";
            }
            return new ClientIdentity(settings.clientId(), settings.clientSecret(), method, settings.clientKey());
        }
        return store.read(clientKey(as.issuer())).map(ClientIdentity::fromJson).orElse(null);
    }

    /** RFC 7591, as a native application (the redirect comes back to this machine). */
    private ClientIdentity register(AuthorizationServer as, URI redirect) throws AuthFailure {
        List<String> supported = as.tokenEndpointAuthMethods();
        String method = supported.contains("none") ? "none" : supported.contains("client_secret_basic")
                ? "client_secret_basic" : supported.contains("client_secret_post") ? "client_secret_post" : "none";
        ObjectNode request = Json.object().put("client_name", settings.clientName())
                .put("token_endpoint_auth_method", method).put("application_type", "native");
        ArrayNode grants = request.putArray("grant_types");
        if (settings.grant() == OAuthSettings.Grant.CLIENT_CREDENTIALS) {
            grants.add("client_credentials");
        } else if (settings.grant().unattended()) {
            grants.add(JWT_BEARER);
        } else {
            grants.add("authorization_code").add("refresh_token");
            request.putArray("response_types").add("code");
            request.putArray("redirect_uris").add(redirect.toString());
        }
        Answer answer = http.postJson(as.registrationEndpoint(), request);
        ClientIdentity registered = answer.ok() ? ClientIdentity.fromJson(answer.body()) : null;
        if (registered == null) {
            throw new AuthFailure("dynamic client registration at " + as.registrationEndpoint() + " failed: "
                    + answer.error(), null);
        }
        String granted = Json.text(answer.body(), "token_endpoint_auth_method");
        log.info("{}: registered as client {} at {}", name, registered.clientId(), as.issuer());
        return new ClientIdentity(registered.clientId(), registered.secret(), granted != null ? granted
                : registered.secret() != null && !method.equals("none") ? method
                : registered.secret() != null ? "client_secret_basic" : "none");
    }

    private String issuerOf(Optional<ProtectedResource> resource) throws AuthFailure {
        if (resource.isEmpty()) {
            return Discovery.origin(server).toString().replaceAll("/$", "");
        }
        List<String> servers = resource.get().authorizationServers();
        if (servers.isEmpty()) {
            throw new AuthFailure("the protected resource metadata lists no authorization_servers", null);
        }
        return servers.getFirst();
    }

    private AuthorizationServer metadataOf(String issuer) throws AuthFailure {
        return discovery.authorizationServer(issuer);
    }

    /** The resource indicator (RFC 8707): exactly as the resource publishes itself, else the server URL. */
    private String resourceOf(Optional<ProtectedResource> resource) {
        return resource.map(ProtectedResource::resource).orElse(server.toString());
    }

    private Tokens current() {
        if (!loaded) {
            reload();
        }
        return tokens;
    }

    private Tokens reload() {
        Tokens read;
        try {
            read = store.read(tokensKey()).map(Tokens::fromJson).orElse(null);
        } catch (RuntimeException e) {
            // an unreadable store is no token: the upstream's 401 then says what is needed
            log.warn("{}: cannot read the token store: {}", name, e.getMessage());
            read = null;
        }
        tokens = read;
        loaded = true;
        return read;
    }

    private void save(Tokens fresh) {
        store.write(tokensKey(), fresh.toJson());
        tokens = fresh;
        loaded = true;
    }

    private String tokensKey() {
        return "tokens " + server;
    }

    private static String clientKey(String issuer) {
        return "client " + issuer;
    }

    private static List<String> words(String scope) {
        return scope == null || scope.isBlank() ? List.of() : Arrays.asList(scope.trim().split("\\s+"));
    }

    private static String random(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
    }

    /** PKCE S256 (RFC 7636 section 4.2). */
    static String challengeOf(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static URI withQuery(URI endpoint, Map<String, String> params) {
        StringJoiner query = new StringJoiner("&");
        params.forEach((name, value) -> {
            if (value != null) {
                query.add(AuthHttp.encode(name) + "=" + AuthHttp.encode(value));
            }
        });
        String base = endpoint.toString();
        return URI.create(base + (endpoint.getRawQuery() == null ? "?" : "&") + query);
    }

    static Map<String, String> queryOf(URI uri) {
        Map<String, String> params = new LinkedHashMap<>();
        String raw = uri.getRawQuery();
        if (raw == null) {
            return params;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.putIfAbsent(key, value);
        }
        return params;
    }

    public static final class Builder {
        private final URI server;
        private String name = "upstream";
        private OAuthSettings settings = OAuthSettings.defaults();
        private TokenStore store = TokenStore.inMemory();
        private AuthorizationStep step;
        private String loginHint;

        private Builder(URI server) {
            this.server = Objects.requireNonNull(server);
        }

        /** The upstream's name, for logs and errors. */
        public Builder name(String value) {
            this.name = value;
            return this;
        }

        public Builder settings(OAuthSettings value) {
            this.settings = Objects.requireNonNull(value);
            return this;
        }

        public Builder store(TokenStore value) {
            this.store = Objects.requireNonNull(value);
            return this;
        }

        /** Who asks the user to approve; without one, a needed approval is a {@link NeedsLoginException}. */
        public Builder authorizationStep(AuthorizationStep value) {
            this.step = value;
            return this;
        }

        /** How the user logs in, appended to the errors that need them to (for example "run `mcpx login NAME`"). */
        public Builder loginHint(String value) {
            this.loginHint = value;
            return this;
        }

        public OAuthClient build() {
            return new OAuthClient(this);
        }
    }
}
