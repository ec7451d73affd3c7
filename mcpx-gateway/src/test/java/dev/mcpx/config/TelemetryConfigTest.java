package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mcpx.metrics}, {@code mcpx.audit}, {@code mcpx.logFormat} and {@code mcpx.telemetry} as the operator writes them. */
class TelemetryConfigTest {

    @TempDir
    Path dir;

    private TelemetryOptions parse(String json) {
        return new ConfigLoader(Map.of("COLLECTOR_KEY", "k3y")).parse(json.replace('\'', '"'), dir.resolve("mcpx.json"))
                .telemetry();
    }

    @Test
    void tracesAreOffByDefaultAndGoToTheCollectorsTracesPath() {
        assertThat(parse("{'mcpServers': {}}").traces()).isEmpty();
        assertThat(parse("{'mcpx': {'telemetry': {'endpoint': 'http://collector:4318'}}, 'mcpServers': {}}").traces())
                .contains(new TelemetryOptions.Traces(URI.create("http://collector:4318/v1/traces"), Map.of(), 1.0));
        TelemetryOptions.Traces traces = parse("{'mcpx': {'telemetry': {'endpoint': 'https://otel.example/api/v1/traces', "
                + "'protocol': 'http/protobuf', 'sampling': 0.25, 'headers': {'x-api-key': '${COLLECTOR_KEY}'}}}, "
                + "'mcpServers': {}}").traces().orElseThrow();
        assertThat(traces).isEqualTo(new TelemetryOptions.Traces(URI.create("https://otel.example/api/v1/traces"),
                Map.of("x-api-key", "k3y"), 0.25));
        assertThat(traces.toString()).as("a header's value is a credential").doesNotContain("k3y").contains("x-api-key");
    }

    @Test
    void traceSettingsThatCannotWorkAreRefused() {
        assertThatThrownBy(() -> parse("{'mcpx': {'telemetry': {}}, 'mcpServers': {}}"))
                .hasMessageContaining("mcpx.telemetry needs \"endpoint\"");
        assertThatThrownBy(() -> parse("{'mcpx': {'telemetry': {'endpoint': 'collector:4318'}}, 'mcpServers': {}}"))
                .hasMessageContaining("mcpx.telemetry.endpoint must be an http or https URL");
        assertThatThrownBy(() -> parse("{'mcpx': {'telemetry': {'endpoint': 'http://c:4318', 'sampling': 2}}, 'mcpServers': {}}"))
                .hasMessageContaining("mcpx.telemetry.sampling must be a number from 0 to 1");
        assertThatThrownBy(() -> parse("{'mcpx': {'telemetry': {'endpoint': 'http://c:4317', 'protocol': 'grpc'}}, "
                + "'mcpServers': {}}")).hasMessageContaining("mcpx.telemetry.protocol must be \"http/protobuf\"");
        assertThatThrownBy(() -> parse("{'mcpx': {'telemetry': {'endpoint': 'http://c:4318', 'exporter': 'otlp'}}, "
                + "'mcpServers': {}}")).hasMessageContaining("\"mcpx.telemetry\" has unknown key \"exporter\"");
        assertThatThrownBy(() -> parse("{'mcpx': {'telemetry': {'endpoint': 'http://c:4318', 'headers': {'k': '${NOPE}'}}}, "
                + "'mcpServers': {}}")).hasMessageContaining("${NOPE}");
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
