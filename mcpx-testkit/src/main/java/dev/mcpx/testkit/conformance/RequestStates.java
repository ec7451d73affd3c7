package dev.mcpx.testkit.conformance;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MRTR requestState as {@code base64url(json).base64url(hmac)}: the client must echo it byte for
 * byte, and a state that was altered, or minted for another fixture, fails verification.
 */
final class RequestStates {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final byte[] key = new byte[32];

    RequestStates() {
        new SecureRandom().nextBytes(key);
    }

    String sign(String fixture, ObjectNode state) {
        byte[] payload = Json.write(state).getBytes(StandardCharsets.UTF_8);
        return ENCODER.encodeToString(payload) + "." + ENCODER.encodeToString(mac(fixture, payload));
    }

    /** The state's content, or an invalid-params error when it does not verify. */
    ObjectNode verify(String fixture, String state) {
        int dot = state.indexOf('.');
        try {
            if (dot < 0) {
                throw invalid();
            }
            byte[] payload = DECODER.decode(state.substring(0, dot));
            byte[] signature = DECODER.decode(state.substring(dot + 1));
            if (!MessageDigest.isEqual(signature, mac(fixture, payload))) {
                throw invalid();
            }
            JsonNode content = Json.parse(new String(payload, StandardCharsets.UTF_8));
            if (!content.isObject()) {
                throw invalid();
            }
            return (ObjectNode) content;
        } catch (IllegalArgumentException | JacksonException malformed) {
            throw invalid();
        }
    }

    private static RpcError.RpcException invalid() {
        return RpcError.of(RpcError.INVALID_PARAMS, "requestState failed its integrity check").exception();
    }

    private byte[] mac(String fixture, byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(fixture.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
