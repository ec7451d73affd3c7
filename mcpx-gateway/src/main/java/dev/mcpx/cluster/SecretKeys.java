package dev.mcpx.cluster;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The cluster's secret keys: AES-GCM with a random 96-bit nonce per value. A sealed value is
 * {@code m1.<key id>.<base64 of nonce and ciphertext>}; the key id (the first 4 bytes of the
 * key's SHA-256, not secret) says which key opens it, so a new key can seal while the old one
 * still opens what it sealed. The name a value is stored under is its associated data: a value
 * moved to another name does not open.
 */
public final class SecretKeys {

    private static final String VERSION = "m1";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String sealingId;
    private final Map<String, SecretKeySpec> byId;

    private SecretKeys(Map<String, SecretKeySpec> byId) {
        this.byId = byId;
        this.sealingId = byId.keySet().iterator().next();
    }

    /** {@code keys}: base64 AES keys, the sealing one first (validated by the config). */
    public static SecretKeys of(List<String> keys) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("no secret key");
        }
        Map<String, SecretKeySpec> byId = new LinkedHashMap<>();
        for (String text : keys) {
            byte[] key = Base64.getDecoder().decode(text);
            byId.putIfAbsent(id(key), new SecretKeySpec(key, "AES"));
        }
        return new SecretKeys(byId);
    }

    /** The id of the key that seals. */
    String sealingId() {
        return sealingId;
    }

    String seal(String name, String plaintext) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, byId.get(sealingId), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(name.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            byte[] out = new byte[NONCE_BYTES + sealed.length];
            System.arraycopy(nonce, 0, out, 0, NONCE_BYTES);
            System.arraycopy(sealed, 0, out, NONCE_BYTES, sealed.length);
            return VERSION + "." + sealingId + "." + Base64.getEncoder().withoutPadding().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has AES-GCM", e);
        }
    }

    /** Whether {@code value} names the sealing key (not one that is rotating out). */
    boolean sealedWithSealingKey(String value) {
        return value.startsWith(VERSION + "." + sealingId + ".");
    }

    /** The plaintext of a value {@link #seal}ed under {@code name}; {@link Unopenable} saying why it cannot be. */
    String open(String name, String value) {
        String[] parts = value.split("\\.", 3);
        if (parts.length != 3 || !VERSION.equals(parts[0])) {
            throw new Unopenable(name + " is not a value sealed by mcpx (" + VERSION + ".KEYID.DATA)");
        }
        SecretKeySpec key = byId.get(parts[1]);
        if (key == null) {
            throw new Unopenable(name + " was sealed with key " + parts[1] + ", which this replica does not have "
                    + "(its keys: " + String.join(", ", byId.keySet()) + "): give every replica the same "
                    + "mcpx.cluster.secretKey, the new key first and the old ones after it while a key rotates");
        }
        byte[] data;
        try {
            data = Base64.getDecoder().decode(parts[2]);
        } catch (IllegalArgumentException e) {
            throw new Unopenable(name + " is not a value sealed by mcpx: its data is not base64");
        }
        if (data.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new Unopenable(name + " is not a value sealed by mcpx: too short");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, data, 0, NONCE_BYTES));
            cipher.updateAAD(name.getBytes(StandardCharsets.UTF_8));
            return new String(cipher.doFinal(data, NONCE_BYTES, data.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new Unopenable(name + " does not open with key " + parts[1] + ": it was changed, or stored under another name");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has AES-GCM", e);
        }
    }

    private static String id(byte[] key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key), 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** A stored value this replica cannot open: a wrong or missing key, or a changed value. */
    public static final class Unopenable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unopenable(String message) {
            super(message);
        }
    }
}
