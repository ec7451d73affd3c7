package dev.mcpx.auth;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The parameters of a {@code WWW-Authenticate: Bearer ...} (or {@code DPoP ...}) challenge that
 * the flow acts on: {@code resource_metadata} (RFC 9728), {@code scope} and {@code error}.
 */
record Challenge(String resourceMetadata, String scope, String error) {

    static final Challenge NONE = new Challenge(null, null, null);

    /** Parses auth-params (RFC 9110 section 11.2: token=token or token="quoted"); anything else is skipped. */
    static Challenge parse(String header) {
        if (header == null || header.isBlank()) {
            return NONE;
        }
        Map<String, String> params = new HashMap<>();
        int i = 0;
        int n = header.length();
        while (i < n) {
            while (i < n && (header.charAt(i) == ',' || Character.isWhitespace(header.charAt(i)))) {
                i++;
            }
            int nameStart = i;
            while (i < n && header.charAt(i) != '=' && header.charAt(i) != ',' && !Character.isWhitespace(header.charAt(i))) {
                i++;
            }
            String name = header.substring(nameStart, i).toLowerCase(Locale.ROOT);
            while (i < n && Character.isWhitespace(header.charAt(i))) {
                i++;
            }
            if (i >= n || header.charAt(i) != '=') {
                continue; // a scheme name, or a token68
            }
            i++;
            while (i < n && Character.isWhitespace(header.charAt(i))) {
                i++;
            }
            StringBuilder value = new StringBuilder();
            if (i < n && header.charAt(i) == '"') {
                i++;
                while (i < n && header.charAt(i) != '"') {
                    if (header.charAt(i) == '\\' && i + 1 < n) {
                        i++;
                    }
                    value.append(header.charAt(i++));
                }
                i++;
            } else {
                while (i < n && header.charAt(i) != ',' && !Character.isWhitespace(header.charAt(i))) {
                    value.append(header.charAt(i++));
                }
            }
            params.putIfAbsent(name, value.toString());
        }
        return new Challenge(params.get("resource_metadata"), blankToNull(params.get("scope")), params.get("error"));
    }

    boolean insufficientScope() {
        return "insufficient_scope".equals(error);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
