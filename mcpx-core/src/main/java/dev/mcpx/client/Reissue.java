package dev.mcpx.client;

/** An operator's per-tool override of the tool's annotations for recovery Phase 2. */
public enum Reissue {
    /** Re-issue after a broken stream even without annotation evidence. */
    ALWAYS,
    /** Never re-issue, whatever the annotations claim. */
    NEVER;

    public static Reissue parse(String text) {
        return switch (text) {
            case "always" -> ALWAYS;
            case "never" -> NEVER;
            default -> throw new IllegalArgumentException("reissue must be \"always\" or \"never\", not \"" + text + "\"");
        };
    }
}
