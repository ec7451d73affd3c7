package dev.mcpx.testkit;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.util.Base64;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks compact JWS the way a server would, with the JDK alone (so a test of mcpx's signing does
 * not trust the library that signed): ES256 and RS256 signatures, RFC 7638 thumbprints, and the
 * DPoP proof rules of RFC 9449 section 4.3.
 */
public final class Jws {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private Jws() {
    }

    public static JsonNode header(String jws) {
        return part(jws, 0);
    }

    public static JsonNode claims(String jws) {
        return part(jws, 1);
    }

    /** Whether {@code jws} is signed by {@code key} with the algorithm its header names (ES256 or RS256 only). */
    public static boolean verifies(String jws, PublicKey key) {
        String[] parts = jws.split("\\.");
        if (parts.length != 3) {
            return false;
        }
        String algorithm = switch (header(jws).path("alg").asString("")) {
            case "ES256" -> "SHA256withECDSAinP1363Format";
            case "RS256" -> "SHA256withRSA";
            default -> null;
        };
        if (algorithm == null) {
            return false;
        }
        try {
            Signature signature = Signature.getInstance(algorithm);
            signature.initVerify(key);
            signature.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            return signature.verify(DECODER.decode(parts[2]));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    /** The P-256 public key of an EC JWK. */
    public static PublicKey ecPublicKey(JsonNode jwk) throws GeneralSecurityException {
        if (!"EC".equals(jwk.path("kty").asString("")) || !"P-256".equals(jwk.path("crv").asString(""))) {
            throw new GeneralSecurityException("not a P-256 EC JWK: " + jwk);
        }
        AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
        parameters.init(new ECGenParameterSpec("secp256r1"));
        ECPoint point = new ECPoint(new BigInteger(1, DECODER.decode(jwk.path("x").asString(""))),
                new BigInteger(1, DECODER.decode(jwk.path("y").asString(""))));
        return KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(point,
                parameters.getParameterSpec(ECParameterSpec.class)));
    }

    /** The RFC 7638 SHA-256 thumbprint of an EC JWK (its required members, in order, no spaces). */
    public static String thumbprint(JsonNode jwk) {
        String canonical = "{\"crv\":\"" + jwk.path("crv").asString("") + "\",\"kty\":\"EC\",\"x\":\""
                + jwk.path("x").asString("") + "\",\"y\":\"" + jwk.path("y").asString("") + "\"}";
        return ENCODER.encodeToString(sha256(canonical));
    }

    /** base64url(SHA-256(ASCII(value))), as a DPoP proof's {@code ath}. */
    public static String hash(String value) {
        return ENCODER.encodeToString(sha256(value));
    }

    /**
     * What is wrong with a DPoP proof for a request ({@code method} to {@code url}, presenting
     * {@code accessToken} or null at a token endpoint), or null when it is right: typ, ES256,
     * a public JWK whose signature verifies, htm, htu, a recent iat, a jti never seen in
     * {@code seenJtis} (which it is added to), and ath.
     */
    public static String dpopProblem(String proof, String method, String url, String accessToken, Set<String> seenJtis) {
        if (proof == null) {
            return "no DPoP proof";
        }
        JsonNode header;
        JsonNode claims;
        try {
            header = header(proof);
            claims = claims(proof);
        } catch (RuntimeException e) {
            return "not a JWS: " + e.getMessage();
        }
        if (!"dpop+jwt".equals(header.path("typ").asString(""))) {
            return "typ is not dpop+jwt";
        }
        JsonNode jwk = header.path("jwk");
        if (jwk.has("d")) {
            return "the jwk carries the private key";
        }
        try {
            if (!verifies(proof, ecPublicKey(jwk))) {
                return "the signature does not verify with the proof's jwk";
            }
        } catch (GeneralSecurityException e) {
            return "bad jwk: " + e.getMessage();
        }
        if (!method.equals(claims.path("htm").asString(""))) {
            return "htm " + claims.path("htm") + " is not " + method;
        }
        if (!url.equals(claims.path("htu").asString(""))) {
            return "htu " + claims.path("htu") + " is not " + url;
        }
        if (Math.abs(System.currentTimeMillis() / 1000 - claims.path("iat").asLong(0)) > 300) {
            return "iat is not recent";
        }
        String jti = claims.path("jti").asString("");
        if (jti.isEmpty() || !seenJtis.add(jti)) {
            return "jti missing or used before";
        }
        if (accessToken != null && !hash(accessToken).equals(claims.path("ath").asString(""))) {
            return "ath does not match the access token";
        }
        if (accessToken == null && claims.has("ath")) {
            return "ath on a token request";
        }
        return null;
    }

    /** A fresh set for {@link #dpopProblem}'s replay check. */
    public static Set<String> jtis() {
        return Collections.synchronizedSet(new HashSet<>());
    }

    private static JsonNode part(String jws, int index) {
        String[] parts = jws.split("\\.");
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a compact JWS");
        }
        return JSON.readTree(new String(DECODER.decode(parts[index]), StandardCharsets.UTF_8));
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
