package dev.mcpx.conformance;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A conformance scenario cited as evidence: {@code client:sse-retry@2025-11-25} (the suite drove
 * {@code mcpx conformance-client}) or {@code server:tools-call@2026-07-28} (the suite drove the
 * gateway's /mcp), optionally narrowed to one check of it:
 * {@code client:request-metadata@2026-07-28#sep-2575-http-version-header-matches-meta}, when only
 * that check proves the sentence and the scenario's other checks are about something else.
 *
 * @param check the check id, or null for the whole scenario
 */
record ScenarioRef(Side side, String scenario, String revision, String check) {

    enum Side { CLIENT, SERVER }

    private static final Pattern FORM = Pattern.compile(
            "(client|server):([a-z0-9][a-z0-9_/.-]*)@(\\d{4}-\\d{2}-\\d{2})(?:#([A-Za-z0-9][A-Za-z0-9_.:-]*))?");

    /** Null when the text is not of the form {@code side:scenario@revision[#check]}. */
    static ScenarioRef parse(String text) {
        Matcher m = FORM.matcher(text.strip());
        if (!m.matches()) {
            return null;
        }
        return new ScenarioRef(m.group(1).equals("client") ? Side.CLIENT : Side.SERVER, m.group(2), m.group(3), m.group(4));
    }

    String sideName() {
        return side.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return sideName() + ":" + scenario + "@" + revision + (check == null ? "" : "#" + check);
    }
}
