package dev.mcpx.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The short seeded soak of every build (about a minute). A long run is the same test with
 * {@code -Dmcpx.soak.seconds=N}, or {@code bin/soak}; a failure prints the seed that reproduces it.
 */
class ChaosSoakTest {

    @Test
    void theGatewayLosesNothingAndRunsNothingTwiceUnderChaos() throws Exception {
        SoakSettings settings = SoakSettings.fromSystemProperties(20261129L, Duration.ofSeconds(40));
        SoakReport report = new ChaosSoak(settings).run();
        System.out.println(report);
        Path file = Path.of("target", "chaos-soak", "seed-" + settings.seed() + ".txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, report.toString());
        assertThat(report.violations()).as(report.toString()).isEmpty();
        assertThat(report.answered()).as("requests answered").isPositive();
    }
}
