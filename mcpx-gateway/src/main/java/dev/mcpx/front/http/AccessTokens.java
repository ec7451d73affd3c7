package dev.mcpx.front.http;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.mcpx.config.FrontAuth;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OAuth access tokens from the configured authorization server, checked as a resource server
 * must (OAuth 2.1 section 5.2, RFC 9068): a JWT signed by one of the keys the server publishes,
 * from its issuer, not expired (a minute's clock skew allowed), for one of this front's
 * audiences. The keys are fetched once, cached, and fetched again when a token names a key not
 * in the cache, at most twice per refresh interval, so a stream of forged key ids cannot make
 * mcpx hammer the server; while the server is out of reach, the keys last read stay in use for
 * an hour.
 */
final class AccessTokens {

    private static final Logger LOG = LoggerFactory.getLogger(AccessTokens.class);

    /** Public-key algorithms only: a published JWKS must never let a shared-secret (HS*) token verify. */
    private static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384,
            JWSAlgorithm.ES512);
    static final int CLOCK_SKEW_SECONDS = 60;
    static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(30);
    private static final Duration KEYS_TIME_TO_LIVE = Duration.ofMinutes(15);
    private static final Duration OUTAGE_TOLERANCE = Duration.ofHours(1);
    private static final Duration FETCH_TIMEOUT = AuthorizationServer.FETCH_TIMEOUT;
    private static final int MAX_DOCUMENT_BYTES = AuthorizationServer.MAX_DOCUMENT_BYTES;
    /** After failing to find the keys, requests are refused at once for this long instead of each asking again. */
    private static final Duration DISCOVERY_BACKOFF = Duration.ofSeconds(5);

    /** What a token turned out to be. */
    sealed interface Check {
    }

    record Valid(JWTClaimsSet claims) implements Check {
    }

    /** Not a token this front accepts; {@code reason} is safe to show its bearer. */
    record Invalid(String reason) implements Check {
    }

    /** Could not be checked now: the authorization server's keys are out of reach. */
    record Unavailable(String reason) implements Check {
    }

    private final FrontAuth auth;
    private final Duration refreshInterval;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(FETCH_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private volatile DefaultJWTProcessor<SecurityContext> processor;
    private volatile boolean keysLoaded;
    private Instant discoveryFailed = Instant.MIN;
    private String discoveryProblem = "";

    AccessTokens(FrontAuth auth, Duration refreshInterval) {
        this.auth = auth;
        this.refreshInterval = refreshInterval;
    }

    /** The token's claims when it is valid for one of {@code audiences}. */
    Check check(String token, Collection<String> audiences) {
        DefaultJWTProcessor<SecurityContext> jwts;
        try {
            jwts = processor();
        } catch (KeysUnavailable e) {
            return new Unavailable(e.getMessage());
        }
        JWTClaimsSet claims;
        try {
            claims = jwts.process(token, null);
        } catch (ParseException e) {
            return new Invalid("the token is not a signed JWT");
        } catch (BadJOSEException e) {
            keysLoaded = true;
            return new Invalid(reason(e));
        } catch (RateLimitReachedException e) {
            // refused a refresh: an unknown key id if the keys were ever read, else they still cannot be
            return keysLoaded ? new Invalid("the token is signed by a key the authorization server does not publish")
                    : new Unavailable("the authorization server's keys cannot be read now");
        } catch (JOSEException e) {
            LOG.warn("cannot check an access token: {}", e.toString());
            return new Unavailable("the authorization server's keys cannot be read now");
        }
        keysLoaded = true;
        List<String> audience = claims.getAudience();
        if (audience.stream().noneMatch(audiences::contains)) {
            return new Invalid("the token is for " + audience + ", not for this resource (" + String.join(", ", audiences) + ")");
        }
        return new Valid(claims);
    }

    private static String reason(BadJOSEException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (message.contains("Expired")) {
            return "the token has expired";
        }
        if (message.contains("iss claim")) {
            return "the token is not from this resource's authorization server";
        }
        if (message.contains("signature") || message.contains("no matching key")) {
            return "the token's signature does not verify with the authorization server's keys";
        }
        return "the token is not valid: " + message;
    }

    private DefaultJWTProcessor<SecurityContext> processor() throws KeysUnavailable {
        DefaultJWTProcessor<SecurityContext> ready = processor;
        if (ready != null) {
            return ready;
        }
        synchronized (this) {
            if (processor != null) {
                return processor;
            }
            if (Instant.now().isBefore(discoveryFailed.plus(DISCOVERY_BACKOFF))) {
                throw new KeysUnavailable(discoveryProblem);
            }
            try {
                processor = build(discoverKeys());
                return processor;
            } catch (KeysUnavailable e) {
                discoveryFailed = Instant.now();
                discoveryProblem = e.getMessage();
                LOG.warn("cannot check access tokens: {}", e.getMessage());
                throw e;
            }
        }
    }

    private DefaultJWTProcessor<SecurityContext> build(URI jwksUri) throws KeysUnavailable {
        JWKSource<SecurityContext> keys;
        try {
            keys = JWKSourceBuilder.<SecurityContext>create(jwksUri.toURL(), new DefaultResourceRetriever(
                            (int) FETCH_TIMEOUT.toMillis(), (int) FETCH_TIMEOUT.toMillis(), MAX_DOCUMENT_BYTES))
                    .cache(KEYS_TIME_TO_LIVE.toMillis(), FETCH_TIMEOUT.toMillis())
                    .refreshAheadCache(false)
                    .rateLimited(refreshInterval.toMillis())
                    .retrying(false)
                    // while the server cannot be reached, the keys last read stay good for a while
                    .outageTolerant(OUTAGE_TOLERANCE.toMillis())
                    .build();
        } catch (IOException | IllegalArgumentException e) {
            throw new KeysUnavailable("jwks URL " + jwksUri + " is not usable: " + e.getMessage());
        }
        DefaultJWTProcessor<SecurityContext> jwts = new DefaultJWTProcessor<>();
        // RFC 9068 access tokens say "at+jwt"; many servers still issue plain "JWT" or no type
        jwts.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, new JOSEObjectType("at+jwt"),
                new JOSEObjectType("application/at+jwt"), null));
        jwts.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(null,
                new JWTClaimsSet.Builder().issuer(auth.issuer()).build(), Set.of("iss", "exp", "aud"), null);
        claims.setMaxClockSkew(CLOCK_SKEW_SECONDS);
        jwts.setJWTClaimsSetVerifier(claims);
        LOG.info("access tokens from {} are checked against the keys at {}", auth.issuer(), jwksUri);
        return jwts;
    }

    private URI discoverKeys() throws KeysUnavailable {
        try {
            return AuthorizationServer.keys(auth, http).jwksUri();
        } catch (AuthorizationServer.Unusable e) {
            throw new KeysUnavailable(e.getMessage());
        }
    }

    private static final class KeysUnavailable extends Exception {
        KeysUnavailable(String message) {
            super(message, null, false, false);
        }
    }
}
