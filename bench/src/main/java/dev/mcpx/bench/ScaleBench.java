package dev.mcpx.bench;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.protocol.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Scale through one gateway: 1,000 calls in flight at once (each a {@code sleep} on the
 * upstream, which counts how many overlap), and a 10,000-tool catalogue listed by a host.
 */
final class ScaleBench {

    /** {@code peakInFlight} is what the upstream saw running at the same time. */
    record InFlight(int callers, int hosts, int callsEach, long completed, long errors, int peakInFlight, double seconds,
                    String firstError) {
    }

    /** Medians over fresh host listings; {@code directMillis} lists the same tools straight from the upstreams. */
    record BigCatalogue(int tools, int listed, int pages, double listMillis, double directMillis,
                        boolean lastToolAnswered) {
    }

    private ScaleBench() {
    }

    /** Callers per host session: within mcpx's per-host limit of 64 calls in flight. */
    static final int CALLERS_PER_HOST = 50;

    static InFlight inFlight(BenchEnv env, int callers, int callsEach, long sleepMillis) throws Exception {
        try (FastUpstream upstream = FastUpstream.start(FastUpstream.Era.LEGACY, 2)) {
            var config = new GatewayConfigFile().http("slow", upstream.url()).write(env.logDir(), "in-flight.json");
            List<McpClient> hosts = new ArrayList<>();
            try (McpxGateway gateway = McpxGateway.start(env, "mcpx-in-flight", config, Map.of())) {
                for (int h = 0; h * CALLERS_PER_HOST < callers; h++) {
                    hosts.add(HostClients.legacyHost("in-flight-" + h, gateway.url()));
                }
                StartupBench.awaitTools(hosts.getFirst(), 2, Duration.ofSeconds(30));
                AtomicLong completed = new AtomicLong();
                AtomicLong errors = new AtomicLong();
                AtomicReference<String> firstError = new AtomicReference<>();
                long start = System.nanoTime();
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < callers; i++) {
                    McpClient host = hosts.get(i / CALLERS_PER_HOST);
                    threads.add(Thread.ofVirtual().start(() -> {
                        for (int c = 0; c < callsEach; c++) {
                            try {
                                host.callTool("slow__sleep", Json.object().put("ms", sleepMillis), RequestOptions.defaults());
                                completed.incrementAndGet();
                            } catch (RuntimeException e) {
                                errors.incrementAndGet();
                                firstError.compareAndSet(null, e.toString());
                            }
                        }
                    }));
                }
                for (Thread t : threads) {
                    t.join();
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                return new InFlight(callers, hosts.size(), callsEach, completed.get(), errors.get(),
                        upstream.peakInFlight(), seconds, firstError.get());
            } finally {
                hosts.forEach(McpClient::close);
            }
        }
    }

    static BigCatalogue bigCatalogue(BenchEnv env, int tools, int listings) throws Exception {
        int half = tools / 2;
        try (FastUpstream legacy = FastUpstream.start(FastUpstream.Era.LEGACY, half);
             FastUpstream modern = FastUpstream.start(FastUpstream.Era.MODERN, tools - half)) {
            var config = new GatewayConfigFile().http("big1", legacy.url()).http("big2", modern.url())
                    .write(env.logDir(), "big-catalogue.json");
            try (McpxGateway gateway = McpxGateway.start(env, "mcpx-big-catalogue", config, Map.of())) {
                double[] through = new double[listings];
                double[] direct = new double[listings];
                int listed = 0;
                int pages = 0;
                String last = null;
                try (McpClient warm = HostClients.legacyHost("catalogue-warm", gateway.url())) {
                    StartupBench.awaitTools(warm, tools, Duration.ofSeconds(120));
                }
                for (int i = 0; i < listings; i++) {
                    try (McpClient host = HostClients.legacyHost("catalogue", gateway.url());
                         McpClient directLegacy = HostClients.legacyHost("direct-1", legacy.url());
                         McpClient directModern = HostClients.detecting("direct-2", modern.url())) {
                        long start = System.nanoTime();
                        Listing listing = listAll(host);
                        through[i] = (System.nanoTime() - start) / 1e6;
                        start = System.nanoTime();
                        listAll(directLegacy);
                        listAll(directModern);
                        direct[i] = (System.nanoTime() - start) / 1e6;
                        listed = listing.tools().size();
                        pages = listing.pages();
                        last = listing.tools().getLast().path("name").asString();
                    }
                }
                boolean answered;
                try (McpClient host = HostClients.legacyHost("catalogue-call", gateway.url())) {
                    JsonNode result = host.callTool(last, Json.object(), RequestOptions.defaults());
                    answered = !result.path("isError").asBoolean(false);
                }
                return new BigCatalogue(tools, listed, pages, Stats.median(through), Stats.median(direct), answered);
            }
        }
    }

    record Listing(List<JsonNode> tools, int pages) {
    }

    /** Every page of {@code tools/list}, fresh from the wire (no client cache). */
    static Listing listAll(McpClient client) {
        List<JsonNode> tools = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            ObjectNode params = cursor == null ? null : Json.object().put("cursor", cursor);
            JsonNode page = client.request("tools/list", params);
            page.path("tools").forEach(tools::add);
            pages++;
            cursor = page.path("nextCursor").isString() ? page.path("nextCursor").asString() : null;
        } while (cursor != null);
        return new Listing(tools, pages);
    }
}
