package dev.mcpx.conformance;

import java.util.List;

/**
 * One row of conformance/register.yaml: a spec requirement mcpx claims, or has not met yet.
 *
 * @param id        stable kebab-case name, cited by docs/compare/register
 * @param revision  the spec revision, e.g. {@code 2025-11-25}
 * @param spec      the spec page, relative to the shared spec folder, e.g. {@code 2025-11-25/basic/transports.md}
 * @param section   the heading the sentence sits under
 * @param level     MUST, MUST NOT, SHOULD, SHOULD NOT, REQUIRED
 * @param sentence  the requirement, quoted from the spec page ({@code ...} marks an elision)
 * @param role      who must do it: client, gateway-server, gateway-client
 * @param status    covered, gap, not-applicable
 * @param tests     evidence: test methods as {@code package.Class#method}
 * @param scenarios evidence: conformance scenarios as {@code client:name@revision} or {@code server:name@revision}
 * @param reason    why a not-applicable row does not apply
 * @param note      anything a reader should know (what a gap lacks, how a covered row is met)
 * @param deviation where mcpx deliberately departs from the sentence, and why
 * @param awaitsRun  true for a covered row whose only evidence is conformance scenarios and which says
 *                   so ({@code verified-by: conformance-run}): until a run has left current results
 *                   it is pending rather than failing, except in the strict check after the run
 */
record Requirement(String id, String revision, String spec, String section, String level, String sentence,
        String role, Status status, List<TestRef> tests, List<ScenarioRef> scenarios, String reason, String note,
        String deviation, boolean awaitsRun) {

    enum Status {
        COVERED("covered"), GAP("gap"), NOT_APPLICABLE("not-applicable");

        private final String text;

        Status(String text) {
            this.text = text;
        }

        String text() {
            return text;
        }

        static Status parse(String text) {
            for (Status status : values()) {
                if (status.text.equals(text)) {
                    return status;
                }
            }
            return null;
        }
    }

    boolean hasEvidence() {
        return !tests.isEmpty() || !scenarios.isEmpty();
    }
}
