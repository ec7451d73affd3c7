package dev.mcpx.catalogue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The name hosts see for an upstream's tool or prompt: {@code prefix__name} ({@code full}), and
 * for a tool {@code shown} within {@value #MAX_TOOL_NAME} characters, because many model APIs
 * reject a tool list with a longer name. A longer one keeps its first characters and ends in
 * {@code _} and 8 hex digits of its full name's SHA-256: the same full name always gives the
 * same short one, and two full names sharing a beginning still differ.
 */
public record ExposedName(String full, String shown) {

    public static final int MAX_TOOL_NAME = 64;
    static final String SEPARATOR = "__";
    private static final int HASH_CHARS = 8;

    public static ExposedName tool(String prefix, String original) {
        String full = namespaced(prefix, original);
        return new ExposedName(full, full.length() <= MAX_TOOL_NAME ? full : shortened(full));
    }

    static ExposedName prompt(String prefix, String original) {
        String full = namespaced(prefix, original);
        return new ExposedName(full, full);
    }

    public boolean isShortened() {
        return !full.equals(shown);
    }

    private static String namespaced(String prefix, String original) {
        return prefix.isEmpty() ? original : prefix + SEPARATOR + original;
    }

    private static String shortened(String full) {
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256").digest(full.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        String hash = HexFormat.of().formatHex(digest).substring(0, HASH_CHARS);
        int keep = MAX_TOOL_NAME - 1 - HASH_CHARS;
        if (Character.isHighSurrogate(full.charAt(keep - 1))) {
            keep--; // never split a surrogate pair
        }
        return full.substring(0, keep) + "_" + hash;
    }
}
