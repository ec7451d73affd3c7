package dev.mcpx.config;

import java.util.regex.Pattern;

/** What a tool/prompt name prefix may look like: it ends up inside names models must accept. */
final class Prefixes {

    static final Pattern VALID = Pattern.compile("[A-Za-z0-9_-]*");

    private Prefixes() {
    }

    /** The prefix an entry gets when none is configured: its name, made name-safe. */
    static String defaultFor(String name) {
        String safe = name.replaceAll("[^A-Za-z0-9_-]", "_").replaceAll("_{2,}", "_");
        return safe.endsWith("_") ? safe.substring(0, safe.length() - 1) : safe;
    }

    /** Why {@code prefix} is unusable, or null when it is fine. */
    static String problem(String prefix) {
        if (!VALID.matcher(prefix).matches()) {
            return "prefix \"" + prefix + "\" may only contain letters, digits, '_' and '-'";
        }
        if (prefix.contains("__") || prefix.endsWith("_")) {
            return "prefix \"" + prefix + "\" must not contain \"__\" or end with '_': the separator is \"__\"";
        }
        return null;
    }
}
