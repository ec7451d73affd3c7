package dev.mcpx.testkit.modern;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The server side of the 2026-07-28 header value encoding, written apart from mcpx-core's on
 * purpose so that a bug there cannot hide itself here.
 */
final class SentinelHeader {

    private SentinelHeader() {
    }

    /** The decoded value, or throws {@link IllegalArgumentException} naming what is wrong. */
    static String decode(String raw) {
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if ((c < 0x20 || c > 0x7E) && c != '\t') {
                throw new IllegalArgumentException("invalid character 0x" + Integer.toHexString(c));
            }
        }
        if (!raw.startsWith("=?base64?") || !raw.endsWith("?=")) {
            return raw;
        }
        if (raw.length() < 11) {
            throw new IllegalArgumentException("truncated Base64 sentinel");
        }
        byte[] bytes = Base64.getDecoder().decode(raw.substring(9, raw.length() - 2));
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("Base64 content is not UTF-8");
        }
    }
}
