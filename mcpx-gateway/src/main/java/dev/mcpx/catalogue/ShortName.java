package dev.mcpx.catalogue;

/** A tool hosts see under {@code shortName} because its {@code fullName} is over 64 characters. */
public record ShortName(String upstream, String shortName, String fullName) {

    public String describe() {
        return "tool name \"" + fullName + "\" of \"" + upstream + "\" is longer than " + ExposedName.MAX_TOOL_NAME
                + " characters, which many model APIs reject; hosts see it as \"" + shortName + "\"";
    }
}
