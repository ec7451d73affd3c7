package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mcpx.metrics}, {@code mcpx.audit} and {@code mcpx.logFormat} as the operator writes them. */
class TelemetryConfigTest {

    @TempDir
    Path dir;

    private TelemetryOptions parse(String json) {
        return new ConfigLoader(Map.of()).parse(json.replace('\'', '"'), dir.resolve("mcpx.json")).telemetry();
    }

    @Test
    void metricsAreOnAndThereIsNoAuditLogByDefault() {
        assertThat(parse("{'mcpServers': {}}")).isEqualTo(TelemetryOptions.DEFAULTS);
        assertThat(parse("{'mcpx': {}, 'mcpServers': {}}")).isEqualTo(new TelemetryOptions(true, Optional.empty(), false));
    }

    @Test
    void theAuditLogGoesToStderrOrToAFileBesideTheConfig() {
        assertThat(parse("{'mcpx': {'audit': 'stderr'}, 'mcpServers': {}}").audit())
                .contains(new TelemetryOptions.Audit(Optional.empty(), false, false));
        assertThat(parse("{'mcpx': {'audit': 'logs/audit.jsonl'}, 'mcpServers': {}}").audit())
                .contains(new TelemetryOptions.Audit(Optional.of(dir.resolve("logs/audit.jsonl")), false, false));
        assertThat(parse("{'mcpx': {'audit': {'file': '/var/log/mcpx.jsonl', 'arguments': true}}, 'mcpServers': {}}").audit())
                .contains(new TelemetryOptions.Audit(Optional.of(Path.of("/var/log/mcpx.jsonl")), true, false));
        assertThat(parse("{'mcpx': {'audit': {'results': true}}, 'mcpServers': {}}").audit())
                .contains(new TelemetryOptions.Audit(Optional.empty(), false, true));
    }

    @Test
    void metricsOffAndJsonLogs() {
        TelemetryOptions options = parse("{'mcpx': {'metrics': false, 'logFormat': 'json'}, 'mcpServers': {}}");
        assertThat(options.metrics()).isFalse();
        assertThat(options.jsonLogs()).isTrue();
    }

    @Test
    void mistakesSayWhatIsExpected() {
        assertThatThrownBy(() -> parse("{'mcpx': {'audit': 5}, 'mcpServers': {}}")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("\"mcpx.audit\" must be \"stderr\", a file path, or an object");
        assertThatThrownBy(() -> parse("{'mcpx': {'audit': {'secrets': true}}, 'mcpServers': {}}"))
                .hasMessageContaining("\"mcpx.audit\" has unknown key \"secrets\" (known: file, arguments, results)");
        assertThatThrownBy(() -> parse("{'mcpx': {'metrics': 'yes'}, 'mcpServers': {}}"))
                .hasMessageContaining("mcpx.metrics");
        assertThatThrownBy(() -> parse("{'mcpx': {'logFormat': 'xml'}, 'mcpServers': {}}"))
                .hasMessageContaining("mcpx.logFormat must be \"text\" or \"json\", not \"xml\"");
    }
}
