package dev.mcpx.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.ServeProcess;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.legacy.LegacyHttpUpstream;
import dev.mcpx.testkit.legacy.RecordedRequest;
import dev.mcpx.testkit.cluster.HaProxy;
import dev.mcpx.testkit.cluster.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The chaos soak's cluster mode: replicas of {@code mcpx serve --http} on one real redis-server,
 * behind a real HAProxy in round robin, while legacy hosts (resuming with {@code Last-Event-ID}
 * through the balancer) and modern hosts call a read-only slow tool and a guarded one (its
 * operator said never to run it twice), and replicas are SIGKILLed on a seeded schedule. Each
 * call carries a unique argument, so the upstreams count how often each one ran. A violation is
 * a legacy call answered other than once, a guarded call received twice, a read-only one more
 * than twice, or an answer that is neither the call's result, the stream-lost error nor the
 * balancer's 502. {@code bin/soak --cluster}, or {@code -Dmcpx.soak.seconds}, {@code -Dmcpx.soak.seed},
 * {@code -Dmcpx.soak.callers}; the report goes to {@code target/chaos-soak/cluster-seed-N.txt}.
 */
class ClusterSoakTest {

    private static final Pattern CALL_ID = Pattern.compile("\"n\":\"(c\\d+)\"");

    @TempDir
    Path dir;

    @Test
    void killedReplicasLoseNoLegacyCallAndRunNoGuardedCallTwice() throws Exception {
        long seed = Long.getLong("mcpx.soak.seed", 20261203L);
        Duration duration = Duration.ofSeconds(Long.getLong("mcpx.soak.seconds", 30));
        int callers = Integer.getInteger("mcpx.soak.callers", 8);
        // one kill per 20 s, at most 5: each kill needs a replica of its own (HAProxy's list is fixed)
        int kills = (int) Math.clamp(duration.toSeconds() / 20, 1, 5);
        Random random = new Random(seed);
        List<String> violations = new CopyOnWriteArrayList<>();
        Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        Map<String, String> toolOf = new ConcurrentHashMap<>();
        AtomicInteger resumes = new AtomicInteger();
        AtomicInteger ids = new AtomicInteger();
        List<ServeProcess> replicas = new ArrayList<>();
        try (RedisServer redis = RedisServer.start(dir);
             LegacyHttpUpstream reads = LegacyHttpUpstream.started();
             LegacyHttpUpstream guarded = LegacyHttpUpstream.started()) {
            Path config = dir.resolve("mcpx.json");
            ObjectNode root = Json.object();
            ObjectNode upstreams = root.putObject("mcpServers");
            upstreams.putObject("fake").put("url", reads.url().toString());
            upstreams.putObject("danger").put("url", guarded.url().toString()).putObject("reissue").put("slow", "never");
            root.putObject("mcpx").putObject("cluster").put("redis", redis.uri().toString());
            Files.writeString(config, Json.write(root));
            // two stay alive to the end; one more per kill
            for (int i = 0; i < 2 + kills; i++) {
                replicas.add(ServeProcess.start(Map.of("MCPX_LOG", "WARN"), "serve", "--http", "127.0.0.1:0",
                        "-c", config.toString()));
            }
            List<String> servers = new ArrayList<>();
            for (ServeProcess replica : replicas) {
                replica.awaitListening();
                replica.awaitStderr(Pattern.compile("mcpx: replica (\\S+) of the cluster"));
                servers.add(replica.mcpUri().getHost() + ":" + replica.mcpUri().getPort());
            }
            try (HaProxy balancer = HaProxy.roundRobin(dir, servers)) {
                URI mcp = URI.create("http://127.0.0.1:" + balancer.port() + "/mcp");
                long end = System.nanoTime() + duration.toNanos();
                List<Thread> threads = new ArrayList<>();
                for (int c = 0; c < callers; c++) {
                    boolean legacy = c % 2 == 0;
                    Random own = new Random(random.nextLong());
                    threads.add(Thread.ofVirtual().name("soak-caller-" + c).start(() -> {
                        try {
                            call(legacy, own, mcp, end, ids, toolOf, outcomes, violations, resumes);
                        } catch (Exception e) {
                            violations.add("caller: " + e);
                        }
                    }));
                }
                List<Integer> killedAtMillis = new ArrayList<>();
                long start = System.nanoTime();
                List<ServeProcess> alive = new ArrayList<>(replicas);
                for (int k = 0; k < kills; k++) {
                    long at = start + duration.toNanos() * (k + 1) / (kills + 1);
                    long wait = at - System.nanoTime();
                    if (wait > 0) {
                        // the schedule of the soak, not a synchronisation: replicas die at seeded moments while calls run
                        Thread.sleep(Duration.ofNanos(wait));
                    }
                    ServeProcess victim = alive.remove(random.nextInt(alive.size()));
                    victim.process().destroyForcibly();
                    assertThat(victim.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
                    killedAtMillis.add((int) TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                }
                for (Thread thread : threads) {
                    assertThat(thread.join(Duration.ofMinutes(5))).as("a caller still waits for an answer").isTrue();
                }
                Map<String, Long> readRuns = runs(reads);
                Map<String, Long> guardedRuns = runs(guarded);
                long reissued = readRuns.values().stream().filter(n -> n == 2).count();
                readRuns.forEach((id, n) -> {
                    if (n > 2) {
                        violations.add(id + ": read-only call received " + n + " times");
                    }
                });
                guardedRuns.forEach((id, n) -> {
                    if (n > 1) {
                        violations.add(id + ": guarded call received " + n + " times");
                    }
                });
                StringBuilder report = new StringBuilder();
                report.append("cluster soak, seed ").append(seed).append(", ").append(duration.toSeconds()).append(" s, ")
                        .append(callers).append(" callers (half legacy, half modern), ").append(replicas.size())
                        .append(" replicas, ").append(kills).append(" SIGKILLed at ").append(killedAtMillis).append(" ms\n");
                report.append("host requests: ").append(ids.get()).append('\n');
                outcomes.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry ->
                        report.append("  ").append(entry.getKey()).append(": ").append(entry.getValue().get()).append('\n'));
                report.append("legacy resumes with Last-Event-ID: ").append(resumes.get()).append('\n');
                report.append("read-only calls received by the upstream: ").append(readRuns.size()).append(" calls, ")
                        .append(readRuns.values().stream().mapToLong(Long::longValue).sum()).append(" receipts, ")
                        .append(reissued).append(" run twice (re-issued after a kill)\n");
                report.append("guarded calls received by the upstream: ").append(guardedRuns.size()).append(" calls, ")
                        .append(guardedRuns.values().stream().mapToLong(Long::longValue).sum()).append(" receipts, ")
                        .append(guardedRuns.values().stream().filter(n -> n > 1).count()).append(" run twice\n");
                report.append("violations: ").append(violations.size()).append('\n');
                violations.stream().limit(20).forEach(v -> report.append("  ").append(v).append('\n'));
                System.out.println(report);
                Path file = Path.of("target", "chaos-soak", "cluster-seed-" + seed + ".txt");
                Files.createDirectories(file.getParent());
                Files.writeString(file, report.toString());
                assertThat(violations).as(report.toString()).isEmpty();
                assertThat(outcomes.getOrDefault("legacy: result", new AtomicInteger()).get()).isPositive();
                assertThat(outcomes.getOrDefault("modern: result", new AtomicInteger()).get()).isPositive();
            }
        } finally {
            for (ServeProcess replica : replicas) {
                replica.close();
            }
        }
    }

    /** One host calling until {@code end}: a legacy one on its own session, resuming through the balancer. */
    private static void call(boolean legacy, Random random, URI mcp, long end, AtomicInteger ids, Map<String, String> toolOf,
                             Map<String, AtomicInteger> outcomes, List<String> violations, AtomicInteger resumes) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        String session = null;
        while (System.nanoTime() < end) {
            String id = "c" + ids.incrementAndGet();
            String tool = random.nextBoolean() ? "fake__slow" : "danger__slow";
            int ms = 50 + random.nextInt(2_000);
            toolOf.put(id, tool);
            ObjectNode arguments = Json.object().put("ms", ms).put("n", id);
            if (!legacy) {
                HttpHost.Exchange exchange;
                try {
                    exchange = HttpHost.modern(mcp).call(tool, arguments);
                } catch (java.io.IOException e) {
                    count(outcomes, "modern: connection failed");
                    continue;
                }
                if (exchange.status() == 200 && ("slept " + ms + " ms").equals(exchange.text())) {
                    count(outcomes, "modern: result");
                } else if (exchange.status() == 502) {
                    count(outcomes, "modern: balancer's 502 (its replica died under it)");
                } else {
                    violations.add(id + " (modern " + tool + "): HTTP " + exchange.status() + " " + exchange.body());
                }
                continue;
            }
            if (session == null) {
                HttpHost host = HttpHost.legacy(mcp);
                if (host.initialize().status() != 200) {
                    count(outcomes, "legacy: initialize refused by the balancer");
                    continue;
                }
                session = host.sessionId();
            }
            ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
            body.putObject("params").put("name", tool).set("arguments", arguments);
            ResumingCall call = ResumingCall.start(client, session, mcp, mcp, body);
            call.done.get(5, TimeUnit.MINUTES);
            resumes.addAndGet(call.resumes);
            if (call.answers.isEmpty() && call.resumes == 0 && call.postStatus != 200) {
                // the balancer's 502, or a connection cut before anything of the answer came: the host decides
                count(outcomes, "legacy: lost before its stream began (HTTP " + call.postStatus + ")");
                continue;
            }
            if (call.answers.size() != 1 || !call.failures.isEmpty()) {
                violations.add(id + " (legacy " + tool + "): " + call.answers.size() + " answers " + call.answers
                        + " " + call.failures);
                continue;
            }
            JsonNode answer = call.answers.getFirst();
            if (("slept " + ms + " ms").equals(answer.path("result").path("content").path(0).path("text").asString(""))) {
                count(outcomes, call.resumes > 0 ? "legacy: result after a resume" : "legacy: result");
            } else if (answer.path("error").path("code").asInt() == -32003 && tool.equals("danger__slow")) {
                count(outcomes, "legacy: stream-lost error (guarded call on a killed replica)");
            } else {
                violations.add(id + " (legacy " + tool + "): " + answer);
            }
        }
    }

    private static void count(Map<String, AtomicInteger> outcomes, String outcome) {
        outcomes.computeIfAbsent(outcome, key -> new AtomicInteger()).incrementAndGet();
    }

    /** How many times the upstream received each soak call. */
    private static Map<String, Long> runs(LegacyHttpUpstream upstream) {
        return upstream.requests().stream().filter(request -> "tools/call".equals(request.rpcMethod()))
                .map(RecordedRequest::body).map(CALL_ID::matcher).filter(Matcher::find).map(m -> m.group(1))
                .collect(Collectors.groupingBy(id -> id, Collectors.counting()));
    }
}
