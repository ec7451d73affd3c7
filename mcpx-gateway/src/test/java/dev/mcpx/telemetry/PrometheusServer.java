package dev.mcpx.telemetry;

import dev.mcpx.protocol.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * A real Prometheus (Debian's {@code prometheus}) scraping one target every second. It binds
 * port 0 and says where in its log ({@code msg="Listening on" address=HOST:PORT}); a server that
 * exits before that fails the test at once with its log.
 */
final class PrometheusServer implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("msg=\"Listening on\" address=(\\S+)");

    private final Process process;
    private final Path dir;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI api;

    private PrometheusServer(Process process, Path dir, URI api) {
        this.process = process;
        this.dir = dir;
        this.api = api;
    }

    /** Scrapes {@code target} (HOST:PORT) at {@code metricsPath}. */
    static PrometheusServer scraping(String target, String metricsPath) throws Exception {
        String binary = binary();
        Path dir = Files.createTempDirectory("mcpx-prometheus");
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                scrape_configs:
                  - job_name: mcpx
                    metrics_path: %s
                    static_configs:
                      - targets: ['%s']
                """.formatted(metricsPath, target));
        Process process = new ProcessBuilder(binary, "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:0", "--log.level=info").redirectErrorStream(true).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        CompletableFuture<String> address = new CompletableFuture<>();
        Thread.ofVirtual().name("prometheus-log").start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        address.complete(m.group(1));
                    }
                }
            } catch (IOException e) {
                // the process is gone; the exit below says so
            }
            address.completeExceptionally(new IllegalStateException("prometheus exited (" + exitCode(process)
                    + ") before it listened:\n" + String.join("\n", lines)));
        });
        String where;
        try {
            where = address.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
            throw e;
        }
        return new PrometheusServer(process, dir, URI.create("http://" + where + "/api/v1/"));
    }

    private static String exitCode(Process process) {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? "code " + process.exitValue() : "still running";
        } catch (InterruptedException e) {
            return "unknown";
        }
    }

    private static String binary() {
        for (String candidate : List.of("/usr/bin/prometheus", "/usr/local/bin/prometheus")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException("this test needs a real Prometheus server: install Debian's package with "
                + "'apt-get install -y prometheus' (.ci/run does)");
    }

    /** The instant vector of {@code promql}: each element's {@code metric} labels and {@code value}. */
    JsonNode query(String promql) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(api.resolve("query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body = Json.parse(response.body());
        if (!"success".equals(body.path("status").asString())) {
            throw new IllegalStateException("prometheus refused " + promql + ": " + response.body());
        }
        return body.path("data").path("result");
    }

    /** The sum of the values {@code promql} gives now; 0 when it gives none. */
    double sum(String promql) throws Exception {
        double sum = 0;
        for (JsonNode sample : query(promql)) {
            sum += Double.parseDouble(sample.path("value").path(1).asString());
        }
        return sum;
    }

    /** What the scrape of the target last said: {@code up} and the last error. */
    String targetHealth() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(api.resolve("targets")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return response.body();
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
