package dev.mcpx.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.transport.UpstreamEndpoint;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A stdio child sees the variables its config names and a minimal safe base, not the gateway's secrets. */
class ChildEnvironmentTest {

    private static final Set<String> SET_BY_THE_SHELL = Set.of("PWD", "SHLVL", "_", "OLDPWD");
    private static final Set<String> SAFE_BASE = Set.of("PATH", "HOME", "USER", "LOGNAME", "SHELL",
            "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TERM", "SYSTEMROOT", "JAVA_HOME");

    @Test
    void aChildGetsItsNamedVariablesAndTheSafeBaseOnly() throws Exception {
        Set<String> seen = namesIn(childEnvironment(false));
        seen.removeAll(SET_BY_THE_SHELL);
        assertThat(seen).contains("MCPX_NAMED").allMatch(name -> name.equals("MCPX_NAMED") || SAFE_BASE.contains(name));
        Set<String> gatewayOnly = new HashSet<>(System.getenv().keySet());
        gatewayOnly.removeAll(SAFE_BASE);
        assertThat(seen).doesNotContainAnyElementsOf(gatewayOnly);
    }

    @Test
    void aChildConfiguredToInheritGetsEverything() throws Exception {
        Set<String> seen = namesIn(childEnvironment(true));
        Set<String> expected = new HashSet<>(System.getenv().keySet());
        expected.removeAll(SET_BY_THE_SHELL);
        assertThat(seen).containsAll(expected).contains("MCPX_NAMED");
    }

    private static String childEnvironment(boolean inherit) throws Exception {
        UpstreamEndpoint.Stdio endpoint = new UpstreamEndpoint.Stdio("/usr/bin/env", List.of(),
                Map.of("MCPX_NAMED", "value"), null, inherit);
        Process child = ChildProcesses.start(endpoint);
        try {
            return new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            ChildProcesses.stop(child, Duration.ofSeconds(1));
        }
    }

    private static Set<String> namesIn(String envOutput) {
        Set<String> names = new HashSet<>();
        for (String line : envOutput.split("\n")) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                names.add(line.substring(0, equals));
            }
        }
        return names;
    }
}
