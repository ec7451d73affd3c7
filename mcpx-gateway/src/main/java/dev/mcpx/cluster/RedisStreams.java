package dev.mcpx.cluster;

import dev.mcpx.front.http.SharedStreams;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XReadParams;

/**
 * Legacy hosts' stream events in Redis Streams, one per stream under
 * {@code mcpx:stream:{<sha-256 of the session id>}:<stream>}, each event at entry id
 * {@code 0-<seq>} (so a resume reads from {@code Last-Event-ID}'s seq on), bounded by
 * {@code MAXLEN} as a replica bounds what it keeps; and the call running on a stream, while it
 * runs, as a hash under {@code mcpx:call:{...}:<stream>} (its replica and the host's request). Both
 * keys of a stream share a hash tag, so one script can touch both on a Redis Cluster too. A live
 * stream's keys expire after the session's idle limit; an ended one's after {@link #ENDED}.
 */
final class RedisStreams implements SharedStreams {

    /** As many events as one replica keeps for a session: a stream never keeps more. */
    static final int MAX_EVENTS = 1_000;
    /** How long an ended stream stays resumable, as a replica keeps its own. */
    static final Duration ENDED = Duration.ofMinutes(2);
    /** Entry fields: the replica that wrote it, the event's kind, its JSON-RPC text. */
    private static final String EVENT = "e";
    private static final String ANSWER = "a";
    private static final String END = "x";

    /** Appends one entry ({@code ARGV}: expiry, maxlen, seq, writer, kind, data); an answer or end also ends the call. */
    private static final String APPEND = """
            redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], '0-' .. ARGV[3], 'w', ARGV[4], 'k', ARGV[5], 'd', ARGV[6])
            redis.call('EXPIRE', KEYS[1], ARGV[1])
            if ARGV[5] ~= 'e' then redis.call('DEL', KEYS[2]) end
            return 1""";
    private static final String STARTED = """
            redis.call('HSET', KEYS[1], 'r', ARGV[2], 'q', ARGV[3])
            redis.call('EXPIRE', KEYS[1], ARGV[1])
            return 1""";
    /** The first kept entry, the entries after {@code ARGV[1]}, the call (replica, request), in one round trip. */
    private static final String READ = """
            local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
            local after = redis.call('XRANGE', KEYS[1], '(0-' .. ARGV[1], '+')
            local call = redis.call('HMGET', KEYS[2], 'r', 'q')
            return {first, after, call}""";
    /** Moves the call from the dead replica to this one, once: nil when another replica took it, or it was answered. */
    private static final String CLAIM = """
            if redis.call('HGET', KEYS[1], 'r') ~= ARGV[1] then return false end
            local before = redis.call('HGET', KEYS[1], 'n') or '0'
            redis.call('HSET', KEYS[1], 'r', ARGV[2], 'n', '1')
            return {redis.call('HGET', KEYS[1], 'q'), before}""";

    private final RedisClient redis;
    private final String replica;
    private final Supplier<List<String>> members;
    private final String prefix;
    private final long liveSeconds;

    RedisStreams(RedisClient redis, String replica, Supplier<List<String>> members, Duration live) {
        this.redis = redis;
        this.replica = replica;
        this.members = members;
        this.liveSeconds = Math.max(1, live.toSeconds());
        byte[] tag = new byte[6];
        new SecureRandom().nextBytes(tag);
        // per process, so a restarted replica under the same name never reuses a stream id
        this.prefix = HexFormat.of().formatHex(tag) + ".";
    }

    private static String events(String sessionId, String stream) {
        return "mcpx:stream:{" + RedisReplication.digest(sessionId) + "}:" + stream;
    }

    private static String call(String sessionId, String stream) {
        return "mcpx:call:{" + RedisReplication.digest(sessionId) + "}:" + stream;
    }

    @Override
    public String streamPrefix() {
        return prefix;
    }

    @Override
    public void started(String sessionId, String streamId, String request) {
        RedisReplication.call("HSET", () -> redis.eval(STARTED, List.of(call(sessionId, streamId)),
                List.of(Long.toString(liveSeconds), replica, request)));
    }

    @Override
    public void append(String sessionId, String streamId, long seq, String data) {
        add(sessionId, streamId, seq, EVENT, data, liveSeconds);
    }

    @Override
    public void answered(String sessionId, String streamId, long seq, String data) {
        add(sessionId, streamId, seq, ANSWER, data, ENDED.toSeconds());
    }

    @Override
    public void ended(String sessionId, String streamId, long seq) {
        add(sessionId, streamId, seq, END, "", ENDED.toSeconds());
    }

    private void add(String sessionId, String streamId, long seq, String kind, String data, long expirySeconds) {
        RedisReplication.call("XADD", () -> redis.eval(APPEND, List.of(events(sessionId, streamId), call(sessionId, streamId)),
                List.of(Long.toString(expirySeconds), Integer.toString(MAX_EVENTS), Long.toString(seq), replica, kind, data)));
    }

    @Override
    public Optional<Kept> read(String sessionId, String streamId, long afterSeq, Duration wait) {
        Optional<Kept> kept = read(sessionId, streamId, afterSeq);
        if (wait.isZero() || kept.isEmpty() || !kept.get().events().isEmpty() || kept.get().ended()) {
            return kept;
        }
        // nothing new yet: wait for the next entry (or the time), then read again in one piece
        RedisReplication.call("XREAD", () -> redis.xread(XReadParams.xReadParams().count(1).block((int) wait.toMillis()),
                Map.of(events(sessionId, streamId), new StreamEntryID(0, afterSeq))));
        return read(sessionId, streamId, afterSeq);
    }

    private Optional<Kept> read(String sessionId, String streamId, long afterSeq) {
        Object reply = RedisReplication.call("XRANGE", () -> redis.eval(READ,
                List.of(events(sessionId, streamId), call(sessionId, streamId)), List.of(Long.toString(afterSeq))));
        List<?> parts = (List<?>) reply;
        List<?> first = (List<?>) parts.get(0);
        List<?> after = (List<?>) parts.get(1);
        List<?> running = (List<?>) parts.get(2);
        String runningOn = running.get(0) == null ? null : RedisReplication.text(running.get(0));
        if (first.isEmpty() && runningOn == null) {
            return Optional.empty();
        }
        long firstSeq = first.isEmpty() ? -1 : seq(first.getFirst());
        boolean evicted = first.isEmpty() ? afterSeq > 0 : firstSeq > afterSeq + 1;
        List<Event> events = new ArrayList<>();
        boolean ended = false;
        String writer = null;
        for (Object entry : after) {
            Map<String, String> fields = fields(entry);
            writer = fields.get("w");
            if (END.equals(fields.get("k"))) {
                ended = true;
                continue;
            }
            events.add(new Event(seq(entry), fields.get("d")));
            ended |= ANSWER.equals(fields.get("k"));
        }
        if (writer == null && !first.isEmpty()) {
            writer = fields(first.getFirst()).get("w");
        }
        Optional<Running> call = runningOn == null ? Optional.empty()
                : Optional.of(new Running(runningOn, RedisReplication.text(running.get(1))));
        return Optional.of(new Kept(events, evicted, ended, writer, call));
    }

    private static long seq(Object entry) {
        String id = RedisReplication.text(((List<?>) entry).get(0));
        return Long.parseLong(id.substring(id.indexOf('-') + 1));
    }

    private static Map<String, String> fields(Object entry) {
        List<?> flat = (List<?>) ((List<?>) entry).get(1);
        Map<String, String> fields = new java.util.HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(RedisReplication.text(flat.get(i)), RedisReplication.text(flat.get(i + 1)));
        }
        return fields;
    }

    @Override
    public Optional<Claimed> claim(String sessionId, String streamId, String deadReplica) {
        Object reply = RedisReplication.call("HSET", () -> redis.eval(CLAIM, List.of(call(sessionId, streamId)),
                List.of(deadReplica, replica)));
        if (!(reply instanceof List<?> claimed) || claimed.size() < 2 || claimed.get(0) == null) {
            return Optional.empty();
        }
        return Optional.of(new Claimed(RedisReplication.text(claimed.get(0)), "1".equals(RedisReplication.text(claimed.get(1)))));
    }

    @Override
    public String replica() {
        return replica;
    }

    @Override
    public boolean alive(String other) {
        return members.get().contains(other);
    }
}
