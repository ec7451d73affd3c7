package dev.mcpx.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.gateway.HttpHost;
import dev.mcpx.gateway.ServeProcess;
import dev.mcpx.gateway.TestGateways;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.testkit.OAuthServer;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import dev.mcpx.testkit.cluster.RedisServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OAuth upstream's tokens shared by the replicas of a cluster, sealed in a real redis-server:
 * {@code mcpx login} with the cluster's config stores them there, every {@code serve --http}
 * replica uses them, a token the upstream refuses is refreshed once for all replicas, a replica
 * without the key, or with another one, refuses to start, saying why, and a logout forgets them
 * for all.
 */
class SharedTokensTest {

    @TempDir
    Path dir;

    private RedisServer redis;
    private OAuthServer authorizationServer;
    private ModernHttpUpstream upstream;
    private Path config;
    private Map<String, String> env;
    private String key;

    @BeforeEach
    void start() throws Exception {
        redis = RedisServer.start(dir);
        authorizationServer = OAuthServer.start(NodeTools.require());
        upstream = ModernHttpUpstream.start().requireBearer(authorizationServer.issuer());
        ObjectNode root = Json.object();
        root.putObject("mcpServers").putObject("remote").put("url", upstream.url().toString())
                .putObject("oauth").put("client_id", "mcpx-test");
        root.putObject("mcpx").putObject("cluster").put("redis", redis.uri().toString())
                .put("secretKey", "${MCPX_SECRET_KEY}");
        config = Files.writeString(dir.resolve("mcpx.json"), Json.write(root));
        Path browser = Files.writeString(dir.resolve("browser.sh"),
                "#!/bin/sh\nexec curl -sS -L -o /dev/null \"$1\"\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(browser, PosixFilePermissions.fromString("rwx------"));
        key = newKey();
        env = Map.of("MCPX_HOME", dir.resolve("home").toString(), "BROWSER", browser.toString(), "MCPX_SECRET_KEY", key);
    }

    @AfterEach
    void stop() throws Exception {
        upstream.close();
        authorizationServer.close();
        redis.close();
    }

    @Test
    void aLoginServesEveryReplicaAndARefusedTokenIsRefreshedOnceForAll() throws Exception {
        Run login = run(env, "login", "-c", config.toString(), "remote", "--timeout", "60");
        assertThat(login.exit()).as(login.output() + authorizationServer.log()).isZero();
        assertThat(login.output()).contains("tokens in " + redis.uri() + " (encrypted with key");
        assertThat(dir.resolve("home/tokens.json")).doesNotExist();

        String stored = storedAccessToken();
        try (Jedis raw = new Jedis(redis.uri())) {
            List<String> names = new ArrayList<>(raw.keys("mcpx:secret:*"));
            assertThat(names).isNotEmpty().allMatch(name -> !name.contains(upstream.url().getHost() + ":"));
            for (String name : names) {
                String bytes = new String(raw.get(name.getBytes(StandardCharsets.UTF_8)), StandardCharsets.ISO_8859_1);
                assertThat(bytes).startsWith("m1.").doesNotContain(stored).doesNotContain("access_token")
                        .doesNotContain("refresh_token").doesNotContain("mcpx-test");
            }
        }

        try (ServeProcess a = ServeProcess.start(env, "serve", "-c", config.toString(), "--http", "127.0.0.1:0").awaitListening();
             ServeProcess b = ServeProcess.start(env, "serve", "-c", config.toString(), "--http", "127.0.0.1:0").awaitListening()) {
            HttpHost hostA = HttpHost.modern(a.mcpUri());
            HttpHost hostB = HttpHost.modern(b.mcpUri());
            for (var replica : List.of(Map.entry(hostA, a), Map.entry(hostB, b))) {
                assertThat(replica.getValue().stderr()).contains("OAuth tokens of upstreams in " + redis.uri());
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
                        replica.getKey().request("tools/list", null).body()).as(replica.getValue()::stderr).contains("remote__plain_tool"));
            }
            assertThat(authorizationServer.tokenRequests("authorization_code")).as("one login for both").isEqualTo(1);
            assertThat(authorizationServer.tokenRequests("refresh_token")).isZero();

            upstream.expireTokensSeen();
            List<Future<HttpHost.Exchange>> calls = new ArrayList<>();
            try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 4; i++) {
                    calls.add(threads.submit(() -> hostA.call("remote__plain_tool", Json.object().put("text", "a"))));
                    calls.add(threads.submit(() -> hostB.call("remote__plain_tool", Json.object().put("text", "b"))));
                }
            }
            for (Future<HttpHost.Exchange> call : calls) {
                assertThat(call.get().body()).as(a.stderr() + b.stderr()).contains("\"content\"").doesNotContain("\"error\"");
            }
            assertThat(authorizationServer.tokenRequests("refresh_token")).as("one refresh for both replicas: "
                    + authorizationServer.log()).isEqualTo(1);
            assertThat(upstream.executions("plain_tool")).isEqualTo(8);
            assertThat(storedAccessToken()).isNotEqualTo(stored);
        }
    }

    @Test
    void aReplicaWithoutTheKeyOrWithAnotherOneRefusesToStartSayingWhy() throws Exception {
        Run login = run(env, "login", "-c", config.toString(), "remote", "--timeout", "60");
        assertThat(login.exit()).as(login.output()).isZero();

        Map<String, String> otherKey = new HashMap<>(env);
        otherKey.put("MCPX_SECRET_KEY", newKey());
        Run wrong = run(otherKey, "serve", "-c", config.toString(), "--http", "127.0.0.1:0");
        assertThat(wrong.exit()).isEqualTo(2);
        assertThat(wrong.output()).contains("mcpx.cluster.secretKey does not open the secrets the cluster keeps in "
                + redis.uri()).contains("which this replica does not have").doesNotContain(otherKey.get("MCPX_SECRET_KEY"))
                .doesNotContain("Exception");

        ObjectNode root = (ObjectNode) Json.parse(Files.readString(config));
        ((ObjectNode) root.path("mcpx").path("cluster")).remove("secretKey");
        Path withoutKey = Files.writeString(dir.resolve("without-key.json"), Json.write(root));
        Map<String, String> noKey = new HashMap<>(env);
        noKey.remove("MCPX_SECRET_KEY");
        Run refused = run(noKey, "serve", "-c", withoutKey.toString(), "--http", "127.0.0.1:0");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.output()).contains("the OAuth tokens of remote are shared by the replicas")
                .contains("no key is set").contains("openssl rand -base64 32");

        String next = newKey();
        Map<String, String> rotating = new HashMap<>(env);
        rotating.put("MCPX_SECRET_KEY", next + "," + key);
        try (ServeProcess rotated = ServeProcess.start(rotating, "serve", "-c", config.toString(), "--http", "127.0.0.1:0")
                .awaitListening()) {
            HttpHost host = HttpHost.modern(rotated.mcpUri());
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
                    host.request("tools/list", null).body()).as(rotated::stderr).contains("remote__plain_tool"));
            assertThat(authorizationServer.tokenRequests("authorization_code")).as("the old key still opens the login's tokens")
                    .isEqualTo(1);
        }
        String nextId = SecretKeys.of(List.of(next)).sealingId();
        try (Jedis raw = new Jedis(redis.uri())) {
            assertThat(raw.get(RedisTokenStore.CHECK)).startsWith("m1." + nextId + ".");
            assertThat(raw.get(RedisTokenStore.secretName("tokens " + upstream.url()))).as("sealed again with the new key")
                    .startsWith("m1." + nextId + ".");
        }
        key = next;

        // the old key may go: everything is sealed with the new one
        Map<String, String> rotated = new HashMap<>(env);
        rotated.put("MCPX_SECRET_KEY", next);
        Run logout = run(rotated, "logout", "-c", config.toString(), "remote");
        assertThat(logout.exit()).as(logout.output()).isZero();
        assertThat(logout.output()).contains("forgot the tokens of remote (" + redis.uri());
        try (RedisTokenStore store = RedisTokenStore.connect(redis.uri(), List.of(key), "test")) {
            assertThat(store.read("tokens " + upstream.url())).as("gone for every replica").isEmpty();
        }
    }

    /** The access token in Redis, opened with the cluster's key. */
    private String storedAccessToken() {
        try (RedisTokenStore store = RedisTokenStore.connect(redis.uri(), List.of(key), "test")) {
            return store.read("tokens " + upstream.url()).orElseThrow().path("access_token").asString();
        }
    }

    private static String newKey() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    private record Run(int exit, String output) {
    }

    /** {@code mcpx ARGS} as its own process, stdout and stderr together. */
    private static Run run(Map<String, String> environment, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(TestGateways.java(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "dev.mcpx.cli.Main"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        if (!environment.containsKey("MCPX_SECRET_KEY")) {
            builder.environment().remove("MCPX_SECRET_KEY");
        }
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
