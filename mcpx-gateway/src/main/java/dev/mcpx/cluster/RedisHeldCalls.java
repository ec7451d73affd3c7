package dev.mcpx.cluster;

import dev.mcpx.protocol.ErrorCodes;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcError;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.router.HeldCallRelay;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Modern hosts' retries of held calls, carried to the process that holds them over Redis pub/sub:
 * each process reads the channel {@code mcpx:held:<its token issuer>}, which carries the retries
 * forwarded to it and the answers to the ones it forwarded. A PUBLISH that reaches no reader means
 * the holder is gone: the host is told at once. While an answer is awaited, the holder's channel is
 * pinged every {@link #PING}: a holder that died mid-round is noticed within it, never waited for.
 */
final class RedisHeldCalls implements HeldCallRelay {

    private static final Logger LOG = LoggerFactory.getLogger(RedisHeldCalls.class);
    private static final String CHANNEL = "mcpx:held:";
    private static final Duration PING = Duration.ofSeconds(1);
    /** The longest a forwarded round may take: a held call expires after 5 minutes anyway. */
    private static final Duration LONGEST = Duration.ofMinutes(6);

    private final RedisClient redis;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, CompletableFuture<JsonNode>> awaited = new ConcurrentHashMap<>();
    private final Channel channel = new Channel();
    private final Supplier<Jedis> subscribing;
    private volatile String issuer;
    private volatile Holder holder;
    private volatile boolean closed;

    RedisHeldCalls(RedisClient redis, Supplier<Jedis> subscribing) {
        this.redis = redis;
        this.subscribing = subscribing;
    }

    @Override
    public boolean reaches() {
        return issuer != null;
    }

    @Override
    public void serve(String issuer, Holder holder) {
        this.holder = holder;
        this.issuer = issuer;
        CompletableFuture<Void> subscribed = channel.subscribed;
        Thread.ofPlatform().daemon().name("mcpx-cluster-held-calls")
                .start(new ChannelReader(subscribing, channel, CHANNEL + issuer, "the held calls' channel", () -> closed));
        try {
            subscribed.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            LOG.warn("cluster: held calls' channel not confirmed within 10 s: retries forwarded here may be missed");
        }
    }

    @Override
    public JsonNode forward(String to, String method, ObjectNode hostParams, ObjectNode hostCapabilities) {
        byte[] bytes = new byte[12];
        random.nextBytes(bytes);
        String id = HexFormat.of().formatHex(bytes);
        ObjectNode ask = Json.object().put("ask", id).put("from", issuer).put("method", method);
        ask.set("params", hostParams);
        ask.set("capabilities", hostCapabilities);
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        awaited.put(id, answer);
        try {
            if (publish(to, ask) == 0) {
                throw gone(method);
            }
            long deadline = System.nanoTime() + LONGEST.toNanos();
            while (true) {
                try {
                    return answered(answer.get(PING.toMillis(), TimeUnit.MILLISECONDS));
                } catch (TimeoutException e) {
                    if (publish(to, Json.object().put("ping", id)) == 0 || System.nanoTime() > deadline) {
                        throw gone(method);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new McpErrorException(JsonRpcError.of(ErrorCodes.INTERNAL_ERROR, "interrupted"));
                } catch (ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            awaited.remove(id);
        }
    }

    private long publish(String to, ObjectNode message) {
        return RedisReplication.call("PUBLISH", () -> redis.publish(CHANNEL + to, message.toString()));
    }

    private static JsonNode answered(JsonNode reply) {
        if (reply.get("error") instanceof ObjectNode error) {
            throw new McpErrorException(new JsonRpcError(error.path("code").asInt(ErrorCodes.INTERNAL_ERROR),
                    error.path("message").asString(""), error.get("data")));
        }
        return reply.get("result");
    }

    private static McpErrorException gone(String method) {
        return new McpErrorException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS, "requestState belongs to a held call"
                + " of an mcpx replica that is gone (it stopped or restarted), and the call went with it: send the "
                + method + " again without requestState"));
    }

    /** A retry forwarded here: routed on a thread of its own (a round may wait for the upstream), answered to its sender. */
    private void hold(JsonNode ask) {
        String id = Json.text(ask, "ask");
        String from = Json.text(ask, "from");
        ObjectNode reply = Json.object().put("reply", id);
        try {
            JsonNode result = holder.route(Json.text(ask, "method"), (ObjectNode) ask.get("params"),
                    ask.get("capabilities") instanceof ObjectNode capabilities ? capabilities : null);
            reply.set("result", result);
        } catch (McpException e) {
            JsonRpcError error = e.toError();
            ObjectNode wire = reply.putObject("error").put("code", error.code()).put("message", error.message());
            if (error.data() != null) {
                wire.set("data", error.data());
            }
        } catch (RuntimeException e) {
            LOG.warn("cluster: a forwarded held call's retry failed here", e);
            reply.putObject("error").put("code", ErrorCodes.INTERNAL_ERROR).put("message", "mcpx failed on the retry: " + e);
        }
        try {
            publish(from, reply);
        } catch (RuntimeException e) {
            LOG.warn("cluster: could not answer a forwarded held call's retry: {}", e.getMessage());
        }
    }

    private final class Channel extends JedisPubSub {
        final CompletableFuture<Void> subscribed = new CompletableFuture<>();

        @Override
        public void onSubscribe(String name, int count) {
            subscribed.complete(null);
        }

        @Override
        public void onMessage(String name, String text) {
            JsonNode message;
            try {
                message = Json.parse(text);
            } catch (RuntimeException e) {
                LOG.warn("cluster: ignored a held calls' message that is not JSON");
                return;
            }
            String reply = Json.text(message, "reply");
            if (reply != null) {
                CompletableFuture<JsonNode> answer = awaited.get(reply);
                if (answer != null) {
                    answer.complete(message);
                }
            } else if (Json.text(message, "ask") != null && Json.text(message, "from") != null) {
                Thread.ofVirtual().name("mcpx-held-forwarded").start(() -> hold(message));
            }
        }
    }

    void close() {
        closed = true;
        try {
            if (channel.isSubscribed()) {
                channel.unsubscribe();
            }
        } catch (JedisException e) {
            LOG.debug("cluster: leaving the held calls' channel: {}", e.getMessage());
        }
    }
}
