package dev.mcpx.bench;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.cluster.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import redis.clients.jedis.Jedis;

/**
 * What a legacy host session costs the cluster's Redis, measured on a real redis-server and two
 * real {@code mcpx serve --http} replicas on it: the bytes each session's record takes
 * ({@code MEMORY USAGE} of its key), and the commands
 * each host request sends ({@code INFO commandstats} before and after, after {@code CONFIG
 * RESETSTAT}). Commands that Lua scripts run are counted by Redis too: a round trip is a
 * command a replica sends, so those are told apart from the ones inside a script.
 */
final class RedisCostBench {

    /** Commands mcpx's replicas only run inside their Lua scripts (EVAL): not round trips. */
    private static final Set<String> IN_SCRIPTS = Set.of("hgetall", "expire", "exists", "hset", "time", "zadd",
            "zremrangebyscore", "zrangebyscore");

    /**
     * {@code bytesPerSession}: MEMORY USAGE of a session's hash, median (used_memory moves by more than 200
     * sessions take with the replicas' connections and the server's buffers). {@code tripsPerSessionOpened}: what a host's connect costs
     * (initialize, notifications/initialized, its listen stream's GET). Round trips are per request, commands by name over all.
     */
    record Cost(String redisVersion, int sessions, long bytesPerSession,
                double tripsPerSessionOpened, Map<String, Long> openCommands, double tripsPerCall, double tripsPerList,
                double tripsPerModernCall, Map<String, Long> callCommands, int calls) {
    }

    private RedisCostBench() {
    }

    static Cost run(BenchEnv env, int sessions, int calls) throws Exception {
        Path dir = Files.createDirectories(env.logDir().resolve("redis-cost"));
        // redis-server cannot take port 0 and say which it got: it listens on a unix socket, behind a relay that can
        try (RedisServer redis = RedisServer.start(dir);
             FastUpstream upstream = FastUpstream.start(FastUpstream.Era.LEGACY, 2)) {
            var config = new GatewayConfigFile().http("fast", upstream.url()).write(env.logDir(), "redis-cost.json");
            Map<String, String> clustered = Map.of("MCPX_REDIS_URL", redis.uri().toString());
            try (Jedis jedis = new Jedis(redis.uri().getHost(), redis.uri().getPort());
                 McpxGateway a = McpxGateway.start(env, "mcpx-redis-cost-a", config, clustered);
                 McpxGateway b = McpxGateway.start(env, "mcpx-redis-cost-b", config, clustered)) {
                String version = section(jedis.info("server")).getOrDefault("redis_version", "?");
                try (McpClient warm = HostClients.legacyHost("warm", a.url())) {
                    StartupBench.awaitTools(warm, 2, Duration.ofSeconds(30));
                }
                int keysBefore = jedis.keys("mcpx:session:*").size();
                jedis.configResetStat();
                List<McpClient> hosts = new ArrayList<>();
                try {
                    for (int i = 0; i < sessions; i++) {
                        hosts.add(HostClients.legacyHost("host-" + i, (i % 2 == 0 ? a : b).url()));
                    }
                    Map<String, Long> opened = commands(jedis);
                    List<Long> sizes = new ArrayList<>();
                    for (String key : jedis.keys("mcpx:session:*")) {
                        Long size = jedis.memoryUsage(key);
                        if (size != null) {
                            sizes.add(size);
                        }
                    }
                    sizes.sort(Long::compare);
                    int created = jedis.keys("mcpx:session:*").size() - keysBefore;

                    jedis.configResetStat();
                    for (int i = 0; i < calls; i++) {
                        hosts.get(i % hosts.size()).callTool("fast__echo", Json.object().put("text", "hi"), RequestOptions.defaults());
                    }
                    Map<String, Long> called = commands(jedis);
                    long callTrips = roundTrips(called);

                    jedis.configResetStat();
                    for (McpClient host : hosts) {
                        host.request("tools/list", null);
                    }
                    long listTrips = roundTrips(commands(jedis));

                    jedis.configResetStat();
                    try (McpClient modern = HostClients.detecting("modern", a.url())) {
                        for (int i = 0; i < 100; i++) {
                            modern.callTool("fast__echo", Json.object().put("text", "hi"), RequestOptions.defaults());
                        }
                    }
                    long modernTrips = roundTrips(commands(jedis));

                    return new Cost(version, created, sizes.isEmpty() ? 0 : sizes.get(sizes.size() / 2),
                            (double) roundTrips(opened) / Math.max(1, created), opened,
                            (double) callTrips / calls, (double) listTrips / hosts.size(), modernTrips / 100.0,
                            called, calls);
                } finally {
                    hosts.forEach(McpClient::close);
                }
            }
        }
    }

    /** Calls per command name since the last reset (heartbeats included: one EVAL per replica every 5 s). */
    static Map<String, Long> commands(Jedis jedis) {
        Map<String, Long> counts = new TreeMap<>();
        section(jedis.info("commandstats")).forEach((name, value) -> {
            if (name.startsWith("cmdstat_")) {
                String calls = value.substring(value.indexOf("calls=") + 6);
                counts.put(name.substring(8), Long.parseLong(calls.substring(0, calls.indexOf(','))));
            }
        });
        // the bench's own INFO and CONFIG are not the gateway's
        counts.remove("info");
        counts.remove("config|resetstat");
        counts.remove("config");
        return counts;
    }

    static long roundTrips(Map<String, Long> commands) {
        return commands.entrySet().stream().filter(entry -> !IN_SCRIPTS.contains(entry.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
    }

    private static Map<String, String> section(String info) {
        Map<String, String> fields = new TreeMap<>();
        for (String line : info.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return fields;
    }
}
