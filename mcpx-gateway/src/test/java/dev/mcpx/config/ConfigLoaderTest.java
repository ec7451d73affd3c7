package dev.mcpx.config;

import dev.mcpx.client.Reissue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.transport.UpstreamEndpoint;
import dev.mcpx.transport.UpstreamEndpoint.HttpKind;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    @TempDir
    Path dir;

    private final ConfigLoader loader = new ConfigLoader(Map.of("TOKEN", "s3cret", "ROOT", "/srv"));

    private GatewayConfig parse(String json) {
        return loader.parse(json.replace('\'', '"'), dir.resolve("mcpx.json"));
    }

    private ConfigException failure(String json) {
        try {
            parse(json);
        } catch (ConfigException e) {
            return e;
        }
        throw new AssertionError("expected a ConfigException for " + json);
    }

    @Test
    void limitsDefaultToWhatMcpxHadBeforeTheyWereConfigurable() {
        GatewayConfig config = parse("{'mcpServers': {'a': {'command': 'a'}}}");

        assertThat(config.limits()).isEqualTo(new Limits(16 * 1024 * 1024, 16 * 1024 * 1024, 8192, 64, Duration.ofSeconds(60)));
        UpstreamConfig a = config.upstream("a").orElseThrow();
        assertThat(a.requestTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(a.limits()).isEqualTo(new Limits.MessageLimits(16 * 1024 * 1024, 16 * 1024 * 1024));
    }

    @Test
    void limitsReachTheUpstreamsAndRequestTimeoutMsIsTheDefaultOfEntriesWithoutTheirOwn() {
        GatewayConfig config = parse("""
                {'mcpx': {'limits': {'maxMessageBytes': 1048576, 'maxSseEventBytes': 65536, 'maxHeaderBytes': 16384,
                                     'maxConcurrentCallsPerHost': 8, 'requestTimeoutMs': 5000}},
                 'mcpServers': {'a': {'command': 'a'}, 'b': {'command': 'b', 'requestTimeoutMs': 900}}}""");

        assertThat(config.limits()).isEqualTo(new Limits(1048576, 65536, 16384, 8, Duration.ofSeconds(5)));
        assertThat(config.upstream("a").orElseThrow().requestTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.upstream("b").orElseThrow().requestTimeout()).isEqualTo(Duration.ofMillis(900));
        assertThat(config.upstream("a").orElseThrow().limits()).isEqualTo(new Limits.MessageLimits(1048576, 65536));
    }

    @Test
    void badLimitsAreConfigErrorsNamingTheKey() {
        assertThat(failure("{'mcpx': {'limits': {'maxMessageBytes': 0}}, 'mcpServers': {}}").getMessage())
                .contains("mcpx.json").contains("\"mcpx.limits.maxMessageBytes\" must be a whole number from 256");
        assertThat(failure("{'mcpx': {'limits': {'maxSseEventBytes': '1M'}}, 'mcpServers': {}}").getMessage())
                .contains("mcpx.limits.maxSseEventBytes").contains("a string");
        assertThat(failure("{'mcpx': {'limits': {'maxHeaderBytes': 4294967296}}, 'mcpServers': {}}").getMessage())
                .contains("mcpx.limits.maxHeaderBytes");
        assertThat(failure("{'mcpx': {'limits': {'maxConcurrentCallsPerHost': 1.5}}, 'mcpServers': {}}").getMessage())
                .contains("mcpx.limits.maxConcurrentCallsPerHost");
        assertThat(failure("{'mcpx': {'limits': {'requestTimeoutMs': -1}}, 'mcpServers': {}}").getMessage())
                .contains("mcpx.limits.requestTimeoutMs");
        assertThat(failure("{'mcpx': {'limits': {'maxBodyBytes': 1}}, 'mcpServers': {}}").getMessage())
                .contains("unknown limit \"maxBodyBytes\"").contains("maxMessageBytes");
        assertThat(failure("{'mcpx': {'limits': 5}, 'mcpServers': {}}").getMessage())
                .contains("\"mcpx.limits\" must be an object");
    }

    @Test
    void readsTheClaudeDesktopFormat() {
        GatewayConfig config = parse("""
                {'mcpServers': {
                  'everything': {'command': 'npx', 'args': ['-y', '@modelcontextprotocol/server-everything'], 'env': {'A': '1'}},
                  'remote': {'url': 'http://127.0.0.1:3001/mcp', 'headers': {'Authorization': 'Bearer ${TOKEN}'}},
                  'old': {'type': 'sse', 'url': 'https://example.com/sse'},
                  'careful': {'url': 'https://example.com/mcp', 'type': 'http',
                              'reissue': {'delete_file': 'never', 'get_weather': 'always'}}
                }}""");

        assertThat(config.upstreams()).extracting(UpstreamConfig::name)
                .containsExactly("everything", "remote", "old", "careful");
        assertThat(config.upstream("everything").orElseThrow().endpoint()).isEqualTo(new UpstreamEndpoint.Stdio(
                "npx", List.of("-y", "@modelcontextprotocol/server-everything"), Map.of("A", "1"), null, false));
        assertThat(config.upstream("remote").orElseThrow().endpoint()).isEqualTo(new UpstreamEndpoint.Http(
                URI.create("http://127.0.0.1:3001/mcp"), Map.of("Authorization", "Bearer s3cret"), HttpKind.AUTO));
        assertThat(((UpstreamEndpoint.Http) config.upstream("old").orElseThrow().endpoint()).kind()).isEqualTo(HttpKind.SSE);
        UpstreamConfig careful = config.upstream("careful").orElseThrow();
        assertThat(((UpstreamEndpoint.Http) careful.endpoint()).kind()).isEqualTo(HttpKind.STREAMABLE);
        assertThat(careful.reissue()).containsExactlyInAnyOrderEntriesOf(
                Map.of("delete_file", Reissue.NEVER, "get_weather", Reissue.ALWAYS));
        assertThat(careful.prefix()).isEqualTo("careful");
        assertThat(careful.requestTimeout()).isEqualTo(UpstreamConfig.DEFAULT_REQUEST_TIMEOUT);
        assertThat(config.tokens()).isEmpty();
    }

    @Test
    void readsMcpxOptionsPerUpstreamAndForTheGateway() throws Exception {
        Files.createDirectories(dir.resolve("work"));
        GatewayConfig config = parse("""
                {'mcpx': {'token': '${TOKEN}', 'http': '127.0.0.1:9000'},
                 'mcpServers': {
                  'a': {'command': '${ROOT}/bin/a', 'cwd': 'work', 'inheritEnv': true, 'prefix': '',
                        'timeoutMs': 1500, 'startTimeoutMs': 700},
                  'b': {'url': 'http://localhost:1/mcp', 'enabled': false},
                  'c': {'url': 'http://localhost:2/mcp', 'disabled': true, 'requestTimeoutMs': 10},
                  'my server.v2': {'command': 'x'}
                }}""");

        UpstreamConfig a = config.upstream("a").orElseThrow();
        UpstreamEndpoint.Stdio stdio = (UpstreamEndpoint.Stdio) a.endpoint();
        assertThat(stdio.command()).isEqualTo("/srv/bin/a");
        assertThat(stdio.cwd()).isEqualTo(dir.resolve("work").toAbsolutePath());
        assertThat(stdio.inheritEnvironment()).isTrue();
        assertThat(a.prefix()).isEmpty();
        assertThat(a.requestTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(a.startTimeout()).isEqualTo(Duration.ofMillis(700));
        assertThat(config.upstream("b").orElseThrow().enabled()).isFalse();
        assertThat(config.upstream("c").orElseThrow().enabled()).isFalse();
        assertThat(config.upstream("c").orElseThrow().requestTimeout()).isEqualTo(Duration.ofMillis(10));
        assertThat(config.upstream("my server.v2").orElseThrow().prefix()).isEqualTo("my_server_v2");
        assertThat(config.enabled()).extracting(UpstreamConfig::name).containsExactly("a", "my server.v2");
        assertThat(config.tokens()).containsExactly(new FrontToken("token", "s3cret", FrontToken.Scope.ALL));
        assertThat(config.http()).hasValueSatisfying(address -> {
            assertThat(address.getHostString()).isEqualTo("127.0.0.1");
            assertThat(address.getPort()).isEqualTo(9000);
        });
    }

    @Test
    void variablesMayHaveDefaults() {
        GatewayConfig config = parse("{'mcpServers': {'a': {'command': '${NOPE:-fallback}', 'args': ['${ROOT}/x-${TOKEN}']}}}");

        UpstreamEndpoint.Stdio stdio = (UpstreamEndpoint.Stdio) config.upstreams().get(0).endpoint();
        assertThat(stdio.command()).isEqualTo("fallback");
        assertThat(stdio.args()).containsExactly("/srv/x-s3cret");
    }

    @Test
    void acceptsVsCodesServersKeyAndAnEmptyList() {
        assertThat(parse("{'servers': {'a': {'type': 'stdio', 'command': 'x'}}}").upstreams()).hasSize(1);
        assertThat(parse("{'mcpServers': {}}").upstreams()).isEmpty();
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nope.json");
        assertThatThrownBy(() -> loader.load(missing))
                .isInstanceOf(ConfigException.class)
                .hasMessage(missing + ": no such file");
    }

    @Test
    void loadsAFileFromDisk() throws Exception {
        Path file = Files.writeString(dir.resolve("cfg.json"), "{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}");
        assertThat(loader.load(file).source()).contains(file);
    }

    @Test
    void textThatIsNotJsonIsReportedWithItsPosition() {
        ConfigException e = failure("{'mcpServers': {'a': }");
        assertThat(e.getMessage()).startsWith(dir.resolve("mcpx.json") + ": is not valid JSON (line 1, column");
        assertThat(e.entry()).isNull();
    }

    @Test
    void theTopLevelMustBeAnObjectWithMcpServers() {
        assertThat(failure("[1]").problem()).isEqualTo("must be a JSON object with an \"mcpServers\" object");
        assertThat(failure("{'servrs': {}}").problem()).isEqualTo("has no \"mcpServers\" object");
        assertThat(failure("{'mcpServers': []}").problem()).isEqualTo("\"mcpServers\" must be an object, not an array");
    }

    @Test
    void aDuplicateServerNameIsAnError() {
        assertThat(failure("{'mcpServers': {'a': {'command': 'x'}, 'a': {'command': 'y'}}}").problem())
                .contains("Duplicate").contains("\"a\"");
    }

    @Test
    void anEntryMustBeAnObject() {
        ConfigException e = failure("{'mcpServers': {'a': 'npx'}}");
        assertThat(e.entry()).isEqualTo("a");
        assertThat(e.getMessage()).isEqualTo(dir.resolve("mcpx.json")
                + ": mcpServers.a: must be an object with \"command\" or \"url\", not a string (\"npx\")");
    }

    @Test
    void anEntryNeedsExactlyOneOfCommandAndUrl() {
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'url': 'http://h/mcp'}}}").problem())
                .startsWith("has both \"command\" and \"url\"");
        assertThat(failure("{'mcpServers': {'a': {'args': ['x']}}}").problem())
                .isEqualTo("needs \"command\" (a process to run) or \"url\" (an HTTP server)");
        assertThat(failure("{'mcpServers': {'a': {'command': ''}}}").problem()).isEqualTo("\"command\" must not be empty");
    }

    @Test
    void wrongTypesAreNamed() {
        assertThat(failure("{'mcpServers': {'a': {'command': 7}}}").problem())
                .isEqualTo("\"command\" must be a string, not a number (7)");
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'args': 'y'}}}").problem())
                .isEqualTo("\"args\" must be an array of strings, not a string (\"y\")");
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'args': ['y', 2]}}}").problem())
                .isEqualTo("\"args[1]\" must be a string, not a number (2)");
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'env': {'K': 1}}}}").problem())
                .isEqualTo("\"env.K\" must be a string, not a number (1)");
        assertThat(failure("{'mcpServers': {'a': {'url': 'http://h/', 'headers': ['x']}}}").problem())
                .isEqualTo("\"headers\" must be an object of strings, not an array");
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'enabled': 'yes'}}}").problem())
                .isEqualTo("\"enabled\" must be true or false, not a string (\"yes\")");
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'timeoutMs': -5}}}").problem())
                .isEqualTo("\"timeoutMs\" must be a positive whole number of milliseconds, not a number (-5)");
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'requestTimeoutMs': 1.5}}}").problem())
                .startsWith("\"requestTimeoutMs\" must be a positive whole number");
    }

    @Test
    void badUrlsAreRejected() {
        assertThat(failure("{'mcpServers': {'a': {'url': 'ftp://h/mcp'}}}").problem())
                .isEqualTo("\"url\" must start with http:// or https://, not \"ftp://h/mcp\"");
        assertThat(failure("{'mcpServers': {'a': {'url': 'localhost:3000'}}}").problem())
                .startsWith("\"url\" must start with http:// or https://");
        assertThat(failure("{'mcpServers': {'a': {'url': 'http://exa mple/'}}}").problem())
                .startsWith("\"url\" is not a valid URL");
        assertThat(failure("{'mcpServers': {'a': {'url': 'http:///mcp'}}}").problem())
                .startsWith("\"url\" has no host");
    }

    @Test
    void unknownAndContradictoryTypesAreRejected() {
        assertThat(failure("{'mcpServers': {'a': {'type': 'websocket', 'url': 'http://h/'}}}").problem())
                .isEqualTo("has unknown \"type\" \"websocket\" (known: stdio, http, streamable-http, sse)");
        assertThat(failure("{'mcpServers': {'a': {'type': 'stdio', 'url': 'http://h/'}}}").problem())
                .isEqualTo("has \"type\": \"stdio\" but no \"command\"");
        assertThat(failure("{'mcpServers': {'a': {'type': 'http', 'command': 'x'}}}").problem())
                .startsWith("has \"type\": \"http\" but a \"command\"");
        assertThat(failure("{'mcpServers': {'a': {'type': 3, 'command': 'x'}}}").problem())
                .isEqualTo("\"type\" must be a string, not a number (3)");
    }

    @Test
    void fieldsOfTheOtherKindAreMistakes() {
        assertThat(failure("{'mcpServers': {'a': {'url': 'http://h/', 'args': []}}}").problem())
                .isEqualTo("\"args\" only applies to a \"command\" server, not a \"url\" one");
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'headers': {}}}}").problem())
                .isEqualTo("\"headers\" only applies to a \"url\" server, not a \"command\" one");
    }

    @Test
    void anUndefinedVariableIsNamed() {
        ConfigException e = failure("{'mcpServers': {'gh': {'url': 'http://h/', 'headers': {'Authorization': 'Bearer ${GITHUB_TOKEN}'}}}}");
        assertThat(e.entry()).isEqualTo("gh");
        assertThat(e.problem()).isEqualTo("headers.Authorization uses ${GITHUB_TOKEN}, which is not set in the environment");
        assertThat(failure("{'mcpServers': {'a': {'command': '${BIN}'}}}").problem()).contains("${BIN}");
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'env': {'K': '${SECRET}'}}}}").problem())
                .isEqualTo("env.K uses ${SECRET}, which is not set in the environment");
        assertThat(failure("{'mcpx': {'token': '${NOPE}'}, 'mcpServers': {}}").problem()).contains("${NOPE}");
    }

    @Test
    void badPrefixesAreRejected() {
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'prefix': 'has space'}}}").problem())
                .isEqualTo("prefix \"has space\" may only contain letters, digits, '_' and '-'");
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'prefix': 'x__y'}}}").problem())
                .contains("must not contain \"__\"");
    }

    @Test
    void twoUpstreamsUnderOnePrefixAreRejectedNamingBoth() {
        ConfigException e = failure("{'mcpServers': {'one': {'command': 'x', 'prefix': 'fs'}, 'fs': {'command': 'y'}}}");
        assertThat(e.entry()).isEqualTo("fs");
        assertThat(e.problem()).isEqualTo("has prefix \"fs\", which \"one\" already uses; give one of them another \"prefix\"");
        assertThat(failure("{'mcpServers': {'a.b': {'command': 'x'}, 'a_b': {'command': 'y'}}}").problem())
                .contains("\"a.b\"");
    }

    @Test
    void aDisabledUpstreamOrEmptyPrefixesNeverCollideHere() {
        assertThat(parse("{'mcpServers': {'a': {'command': 'x', 'prefix': 'p'}, 'b': {'command': 'y', 'prefix': 'p', 'enabled': false}}}")
                .upstreams()).hasSize(2);
        assertThat(parse("{'mcpServers': {'a': {'command': 'x', 'prefix': ''}, 'b': {'command': 'y', 'prefix': ''}}}")
                .upstreams()).hasSize(2);
    }

    @Test
    void badReissuePoliciesAndTimeoutsAreRejected() {
        assertThat(failure("{'mcpServers': {'a': {'url': 'http://h/', 'reissue': {'rm': 'sometimes'}}}}").problem())
                .isEqualTo("\"reissue.rm\" must be \"always\" or \"never\", not \"sometimes\"");
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'timeoutMs': 1, 'requestTimeoutMs': 2}}}").problem())
                .startsWith("\"timeoutMs\" and \"requestTimeoutMs\" say different things");
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'enabled': true, 'disabled': true}}}").problem())
                .startsWith("\"enabled\" and \"disabled\" contradict each other");
    }

    @Test
    void aMissingWorkingDirectoryIsNamed() {
        assertThat(failure("{'mcpServers': {'a': {'command': 'x', 'cwd': 'nowhere'}}}").problem())
                .isEqualTo("\"cwd\" " + dir.resolve("nowhere").toAbsolutePath() + " is not a directory");
    }

    @Test
    void badGatewayOptionsAreRejected() {
        assertThat(failure("{'mcpx': [], 'mcpServers': {}}").problem()).isEqualTo("\"mcpx\" must be an object, not an array");
        assertThat(failure("{'mcpx': {'port': 1}, 'mcpServers': {}}").problem())
                .isEqualTo("\"mcpx\" has unknown option \"port\" (known: token, tokens, auth, tls, http, limits, profiles, search, metrics, audit, logFormat, telemetry, cluster)");
        assertThat(failure("{'mcpx': {'http': '8080'}, 'mcpServers': {}}").problem())
                .isEqualTo("mcpx.http must be HOST:PORT (e.g. 127.0.0.1:8080), not \"8080\"");
        assertThat(failure("{'mcpx': {'http': 'localhost:99999'}, 'mcpServers': {}}").problem()).startsWith("mcpx.http must be");
        assertThat(failure("{'mcpx': {'token': 5}, 'mcpServers': {}}").problem())
                .isEqualTo("\"mcpx.token\" must be a string, not a number (5)");
        assertThat(failure("{'mcpx': {'token': ''}, 'mcpServers': {}}").problem()).isEqualTo("mcpx.token must not be empty");
    }

    @Test
    void namedTokensComeInlineFromVariablesOrFromFilesWithAScope() throws Exception {
        Files.writeString(dir.resolve("ci.token"), "from-a-file\n");
        GatewayConfig config = parse("""
                {'mcpx': {'token': 'plain', 'tokens': {
                    'alice': '${TOKEN}',
                    'ci': {'file': 'ci.token'},
                    'prometheus': {'token': 'read-only', 'scope': 'monitor'}}},
                 'mcpServers': {}}""");

        assertThat(config.tokens()).containsExactly(
                new FrontToken("token", "plain", FrontToken.Scope.ALL),
                new FrontToken("alice", "s3cret", FrontToken.Scope.ALL),
                new FrontToken("ci", "from-a-file", FrontToken.Scope.ALL),
                new FrontToken("prometheus", "read-only", FrontToken.Scope.MONITOR));
        assertThat(config.toString()).contains("alice", "prometheus").doesNotContain("s3cret", "from-a-file", "read-only", "plain");
    }

    @Test
    void badTokensAreRejectedNamingTheKey() {
        assertThat(failure("{'mcpx': {'tokens': []}, 'mcpServers': {}}").problem())
                .isEqualTo("\"mcpx.tokens\" must be an object of named tokens, not an array");
        assertThat(failure("{'mcpx': {'tokens': {'a': ''}}, 'mcpServers': {}}").problem())
                .isEqualTo("\"mcpx.tokens.a\" must not be empty");
        assertThat(failure("{'mcpx': {'tokens': {'a': 5}}, 'mcpServers': {}}").problem())
                .startsWith("\"mcpx.tokens.a\" must be a token string or an object");
        assertThat(failure("{'mcpx': {'tokens': {'a': {'token': 'x', 'file': 'y'}}}, 'mcpServers': {}}").problem())
                .isEqualTo("\"mcpx.tokens.a\" needs exactly one of \"token\" and \"file\"");
        assertThat(failure("{'mcpx': {'tokens': {'a': {'token': 'x', 'scope': 'admin'}}}, 'mcpServers': {}}").problem())
                .isEqualTo("\"mcpx.tokens.a.scope\" must be \"all\" or \"monitor\", not \"admin\"");
        assertThat(failure("{'mcpx': {'tokens': {'a': {'token': 'x', 'role': 'y'}}}, 'mcpServers': {}}").problem())
                .isEqualTo("\"mcpx.tokens.a\" has unknown key \"role\" (known: token, file, scope, profile)");
        ConfigException missing = failure("{'mcpx': {'tokens': {'a': {'file': 'absent.token'}}}, 'mcpServers': {}}");
        assertThat(missing.file()).isEqualTo(dir.resolve("absent.token").toAbsolutePath().normalize());
        assertThat(missing.problem()).isEqualTo("no such token file");
    }

    @Test
    void tlsFilesAreRelativeToTheConfigFile() {
        GatewayConfig config = parse("{'mcpx': {'tls': {'cert': 'tls/fullchain.pem', 'key': '${ROOT}/privkey.pem'}}, 'mcpServers': {}}");

        assertThat(config.tls()).contains(new TlsFiles(dir.resolve("tls/fullchain.pem").toAbsolutePath(),
                Path.of("/srv/privkey.pem")));
        assertThat(failure("{'mcpx': {'tls': {'cert': 'a.pem'}}, 'mcpServers': {}}").problem())
                .isEqualTo("\"mcpx.tls\" needs both \"cert\" and \"key\" (PEM files)");
        assertThat(failure("{'mcpx': {'tls': {'cert': 'a', 'key': 'b', 'ca': 'c'}}, 'mcpServers': {}}").problem())
                .isEqualTo("\"mcpx.tls\" has unknown key \"ca\" (known: cert, key)");
    }
}
