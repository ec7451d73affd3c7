package dev.mcpx.chaos;

import java.util.List;
import java.util.Map;

/**
 * The outcome of one soak run: what was sent and answered, what was injected and recovered,
 * executions of unsafe tools against their requests, resources before and after, and every
 * broken invariant. Its text starts with the seed that reproduces it.
 */
record SoakReport(SoakSettings settings, long sent, long answered, long disconnects, Map<String, Long> fronts,
                  Map<String, Long> answers,
                  Map<String, Long> errors,
                  Map<String, Long> faults, Map<String, Long> recoveries, Map<String, String> executions,
                  ResourceProbe baseline, ResourceProbe drained, ResourceProbe closed, List<String> violations) {

    boolean passed() {
        return violations.isEmpty();
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        out.append("chaos soak seed=").append(settings.seed()).append(" duration=").append(settings.duration().toSeconds())
                .append("s callers=").append(settings.callers())
                .append(" stdio-hosts=").append(settings.stdioHosts()).append('\n');
        out.append("  reproduce: bin/soak --seed ").append(settings.seed()).append(" --seconds ")
                .append(settings.duration().toSeconds()).append(" --callers ").append(settings.callers())
                .append(" --stdio-hosts ").append(settings.stdioHosts()).append('\n');
        out.append("  requests: ").append(sent).append(" answered: ").append(answered)
                .append(" host disconnects: ").append(disconnects).append(" by front: ").append(fronts).append('\n');
        out.append("  answers: ").append(answers).append('\n');
        errors.forEach((message, count) -> out.append("    ").append(count).append(" x ").append(message).append('\n'));
        out.append("  faults: ").append(faults).append('\n');
        out.append("  recoveries: ").append(recoveries).append('\n');
        out.append("  unsafe executions (executed/requested): ").append(executions).append('\n');
        out.append("  resources baseline: ").append(baseline).append('\n');
        out.append("  resources drained:  ").append(drained).append('\n');
        out.append("  resources closed:   ").append(closed).append('\n');
        out.append("  violations: ").append(violations.size()).append('\n');
        violations.stream().limit(40).forEach(v -> out.append("    ").append(v).append('\n'));
        return out.toString();
    }
}
