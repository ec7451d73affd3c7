package dev.mcpx.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Header values of the 2026-07-28 Streamable HTTP transport ({@code Mcp-Name},
 * {@code Mcp-Param-*}). A value that is plain header-safe ASCII goes as it is; anything else
 * travels as {@code =?base64?<UTF-8 as Base64>?=}, so CR, LF or any other control character can
 * never reach the wire.
 */
public final class HeaderValues {

    static final String PREFIX = "=?base64?";
    static final String SUFFIX = "?=";

    private HeaderValues() {
    }

    /** The header value that carries {@code value}: the value itself when safe, else the Base64 sentinel. */
    public static String encode(String value) {
        if (value == null) {
            throw new IllegalArgumentException("a header value must not be null");
        }
        if (isPlainSafe(value) && !looksEncoded(value)) {
            return value;
        }
        return PREFIX + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + SUFFIX;
    }

    /**
     * The original value of a header written by {@link #encode}.
     *
     * @throws InvalidHeaderValueException when the value holds characters no header may hold, or
     *     a sentinel whose content is not Base64 of UTF-8
     */
    public static String decode(String headerValue) {
        if (headerValue == null) {
            throw new InvalidHeaderValueException("a header value must not be null");
        }
        if (!looksEncoded(headerValue)) {
            if (!isValidFieldValue(headerValue)) {
                throw new InvalidHeaderValueException("header value holds characters outside visible ASCII, space and tab");
            }
            return headerValue;
        }
        if (headerValue.length() < PREFIX.length() + SUFFIX.length()) {
            throw new InvalidHeaderValueException("header value is a truncated Base64 sentinel");
        }
        String base64 = headerValue.substring(PREFIX.length(), headerValue.length() - SUFFIX.length());
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new InvalidHeaderValueException("header value is not valid Base64: " + e.getMessage());
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new InvalidHeaderValueException("Base64 header value is not UTF-8");
        }
    }

    /**
     * Whether {@code value} can go into a header as it is: non-empty, visible ASCII or space
     * only, no leading or trailing space. Tab is allowed by RFC 9110 but encoded anyway, since
     * intermediaries disagree on it.
     */
    static boolean isPlainSafe(String value) {
        if (value.isEmpty() || value.charAt(0) == ' ' || value.charAt(value.length() - 1) == ' ') {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                return false;
            }
        }
        return true;
    }

    /** What RFC 9110 lets a received value hold (the spec's "invalid characters" are the rest). */
    private static boolean isValidFieldValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 || c > 0x7E) && c != '\t') {
                return false;
            }
        }
        return true;
    }

    /** Prefix and suffix may overlap ({@code =?base64?=}): such a value is still never sent plain. */
    private static boolean looksEncoded(String value) {
        return value.startsWith(PREFIX) && value.endsWith(SUFFIX);
    }

    /** A received header value that breaks the encoding rules. */
    public static final class InvalidHeaderValueException extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        public InvalidHeaderValueException(String message) {
            super(message);
        }
    }
}
