package dev.mcpx.conformance;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A conformance scenario cited as evidence: {@code client:sse-retry@2025-11-25} (the suite drove
 * {@code mcpx conformance-client}) or {@code server:tools-call@2026-07-28} (the suite drove the gateway's /mcp).
 */
record ScenarioRef(Side side, String scenario, String revision) {

    enum Side { CLIENT, SERVER }

    private static final Pattern FORM = Pattern.compile("(client|server):([a-z0-9][a-z0-9_/.-]*)@(\\d{4}-\\d{2}-\\d{2})");

    /** Null when the text is not of the form {@code side:scenario@revision}. */
    static ScenarioRef parse(String text) {
        Matcher m = FORM.matcher(text.strip());
        if (!m.matches()) {
            return null;
        }
        return new ScenarioRef(m.group(1).equals("client") ? Side.CLIENT : Side.SERVER, m.group(2), m.group(3));
    }

    @Override
    public String toString() {
        return side.name().toLowerCase(java.util.Locale.ROOT) + ":" + scenario + "@" + revision;
    }
}
