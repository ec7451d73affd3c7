package dev.mcpx.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.ParseException;
import java.util.Date;
import java.util.UUID;

/**
 * The key pair a DPoP-bound token is bound to (RFC 9449), and the proofs signed with it: one
 * fresh proof per HTTP request, ES256 (the one algorithm every DPoP server must take). The key
 * is stored with the tokens it binds, so another mcpx process can use them.
 */
final class DpopKey {

    static final String ALGORITHM = JWSAlgorithm.ES256.getName();
    private static final JOSEObjectType TYPE = new JOSEObjectType("dpop+jwt");

    private final ECKey key;
    private final ECDSASigner signer;

    private DpopKey(ECKey key) {
        this.key = key;
        try {
            this.signer = new ECDSASigner(key);
        } catch (JOSEException e) {
            throw new IllegalStateException("a P-256 key always signs ES256", e);
        }
    }

    static DpopKey generate() {
        try {
            return new DpopKey(new ECKeyGenerator(Curve.P_256).generate());
        } catch (JOSEException e) {
            throw new IllegalStateException("the JDK cannot generate a P-256 key", e);
        }
    }

    /** The key as stored (a private JWK), or null when {@code json} is not one. */
    static DpopKey fromJwk(String json) {
        if (json == null) {
            return null;
        }
        try {
            ECKey parsed = ECKey.parse(json);
            return parsed.isPrivate() && Curve.P_256.equals(parsed.getCurve()) ? new DpopKey(parsed) : null;
        } catch (ParseException e) {
            return null;
        }
    }

    String toJwk() {
        return key.toJSONString();
    }

    /**
     * A proof for one request: {@code htm}, {@code htu} (without query and fragment), a fresh
     * {@code jti}, {@code iat}; {@code ath} when it presents {@code accessToken}; the server's
     * {@code nonce} when it gave one.
     */
    String proof(String method, URI uri, String accessToken, String nonce) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .jwtID(UUID.randomUUID().toString())
                .claim("htm", method)
                .claim("htu", htu(uri))
                .issueTime(new Date());
        if (accessToken != null) {
            claims.claim("ath", hash(accessToken));
        }
        if (nonce != null) {
            claims.claim("nonce", nonce);
        }
        SignedJWT proof = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(TYPE).jwk(key.toPublicJWK()).build(),
                claims.build());
        try {
            proof.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("signing a DPoP proof failed: " + e.getMessage(), e);
        }
        return proof.serialize();
    }

    /** RFC 9449 section 4.2: the target URI without query and fragment. */
    static String htu(URI uri) {
        return uri.getScheme() + "://" + uri.getRawAuthority() + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    private static String hash(String accessToken) {
        try {
            return Base64URL.encode(MessageDigest.getInstance("SHA-256")
                    .digest(accessToken.getBytes(StandardCharsets.US_ASCII))).toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @Override
    public String toString() {
        return "DpopKey[" + ALGORITHM + "]";
    }
}
