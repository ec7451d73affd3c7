package dev.mcpx.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * A client's private key for signing its JWT client assertions ({@code private_key_jwt},
 * RFC 7523 section 2.2): an EC (P-256, P-384, P-521) or RSA key in PKCS#8 PEM
 * ({@code -----BEGIN PRIVATE KEY-----}). The authorization server knows the public half (its
 * registered {@code jwks} or {@code jwks_uri}).
 */
public final class SigningKey {

    private static final List<JWSAlgorithm> EC = List.of(JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512);
    private static final List<JWSAlgorithm> RSA = List.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512);

    private final JWSSigner signer;
    private final JWSAlgorithm algorithm;
    private final String keyId;

    private SigningKey(JWSSigner signer, JWSAlgorithm algorithm, String keyId) {
        this.signer = signer;
        this.algorithm = algorithm;
        this.keyId = keyId;
    }

    /**
     * The key in {@code pem}.
     *
     * @param algorithm the JWS algorithm ({@code ES256}, {@code RS256}, ...); null: ES256/384/512 by
     *                  the EC key's curve, RS256 for an RSA key
     * @param keyId     the {@code kid} header, for an authorization server that holds several keys; or null
     * @throws IllegalArgumentException when it is not a PKCS#8 EC or RSA private key, or the
     *                                  algorithm does not fit it
     */
    public static SigningKey fromPem(String pem, String algorithm, String keyId) {
        PrivateKey key = parse(Objects.requireNonNull(pem, "pem"));
        try {
            if (key instanceof ECPrivateKey ec) {
                Curve curve = Curve.forECParameterSpec(ec.getParams());
                JWSAlgorithm byCurve = Curve.P_256.equals(curve) ? JWSAlgorithm.ES256 : Curve.P_384.equals(curve) ? JWSAlgorithm.ES384
                        : Curve.P_521.equals(curve) ? JWSAlgorithm.ES512 : null;
                if (byCurve == null) {
                    throw new IllegalArgumentException("the EC key's curve is not P-256, P-384 or P-521");
                }
                JWSAlgorithm chosen = chosen(algorithm, byCurve, EC);
                if (chosen != byCurve) {
                    throw new IllegalArgumentException(chosen + " does not fit a key on curve " + curve);
                }
                return new SigningKey(new ECDSASigner(ec), chosen, keyId);
            }
            if (key instanceof RSAPrivateKey rsa) {
                return new SigningKey(new RSASSASigner(rsa), chosen(algorithm, JWSAlgorithm.RS256, RSA), keyId);
            }
        } catch (JOSEException e) {
            throw new IllegalArgumentException("the private key cannot sign: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("the private key is neither EC nor RSA");
    }

    /** The JWS algorithm its signatures use. */
    public String algorithm() {
        return algorithm.getName();
    }

    /** A compact JWS of {@code claims}, with {@code type} as its {@code typ} header (or none). */
    String sign(JWTClaimsSet claims, JOSEObjectType type) {
        JWSHeader.Builder header = new JWSHeader.Builder(algorithm).keyID(keyId);
        if (type != null) {
            header.type(type);
        }
        SignedJWT jwt = new SignedJWT(header.build(), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("signing a client assertion failed: " + e.getMessage(), e);
        }
        return jwt.serialize();
    }

    private static JWSAlgorithm chosen(String name, JWSAlgorithm fallback, List<JWSAlgorithm> fitting) {
        if (name == null || name.isBlank()) {
            return fallback;
        }
        JWSAlgorithm parsed = JWSAlgorithm.parse(name.trim());
        if (!fitting.contains(parsed)) {
            throw new IllegalArgumentException("signing algorithm " + name + " does not fit this key (use one of "
                    + fitting + ")");
        }
        return parsed;
    }

    private static PrivateKey parse(String pem) {
        if (pem.contains("BEGIN EC PRIVATE KEY") || pem.contains("BEGIN RSA PRIVATE KEY")) {
            throw new IllegalArgumentException("the private key is in the traditional (SEC1/PKCS#1) form; convert it to"
                    + " PKCS#8: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.p8");
        }
        if (pem.contains("ENCRYPTED PRIVATE KEY")) {
            throw new IllegalArgumentException("the private key is encrypted; give it unencrypted (openssl pkcs8 -topk8"
                    + " -nocrypt) and protect the file instead");
        }
        int begin = pem.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = pem.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("not a PEM private key (-----BEGIN PRIVATE KEY----- ... -----END PRIVATE KEY-----)");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(pem.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the PEM private key is not valid base64", e);
        }
        for (String kind : List.of("EC", "RSA")) {
            try {
                return KeyFactory.getInstance(kind).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not this kind: try the next
            }
        }
        throw new IllegalArgumentException("the PEM private key is neither a PKCS#8 EC nor RSA key");
    }

    /** The key itself is never shown. */
    @Override
    public String toString() {
        return "SigningKey[" + algorithm + (keyId == null ? "" : ", kid=" + keyId) + "]";
    }
}
