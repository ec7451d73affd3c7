package dev.mcpx.front.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One legacy session's resumable streams and their events, bounded by count and bytes across
 * the session (the oldest event goes first). A completed stream is dropped {@code linger} after
 * its answer was written, {@code grace} after it completed without reaching the host, and all of
 * them when the session ends.
 */
final class ReplayStore {

    /** What a {@code Last-Event-ID} resolves to. */
    sealed interface Resume {

        record Found(StreamLog log, long afterSeq) implements Resume {
        }

        record Refused(String reason) implements Resume {
        }

        /** A well-formed id of a stream this replica does not keep: another replica may. */
        record NotHere(String stream, long afterSeq, String reason) implements Resume {
        }
    }

    private final AtomicLong streamNumbers;
    private final SseSettings settings;
    private final ReplayCounters counters;
    private final Map<String, StreamLog> logs = new HashMap<>();
    private final ArrayDeque<StreamLog.Event> oldestFirst = new ArrayDeque<>();
    private long bytes;

    /** The session's id, for {@link #shared}. */
    final String sessionId;
    /** Where the session's events go besides this store (nowhere alone); written by {@link SseStream}. */
    final SharedStreams shared;

    ReplayStore(AtomicLong streamNumbers, SseSettings settings, ReplayCounters counters, String sessionId,
                SharedStreams shared) {
        this.streamNumbers = streamNumbers;
        this.settings = settings;
        this.counters = counters;
        this.sessionId = sessionId;
        this.shared = shared;
    }

    synchronized StreamLog open(SseStream owner) {
        StreamLog log = new StreamLog(shared.streamPrefix() + streamNumbers.incrementAndGet(), owner);
        logs.put(log.id, log);
        return log;
    }

    /** Keeps an event (evicting the session's oldest past the limits); null when the stream was dropped. */
    synchronized StreamLog.Event append(StreamLog log, String data) {
        if (logs.get(log.id) != log) {
            return null;
        }
        StreamLog.Event event = new StreamLog.Event(log, log.nextSeq++, data,
                data.getBytes(StandardCharsets.UTF_8).length);
        log.events.add(event);
        oldestFirst.add(event);
        bytes += event.bytes();
        counters.keptEvents.incrementAndGet();
        counters.keptBytes.addAndGet(event.bytes());
        while (!oldestFirst.isEmpty() && (oldestFirst.size() > settings.maxEvents() || bytes > settings.maxBytes())) {
            evictOldest();
        }
        return event;
    }

    private void evictOldest() {
        StreamLog.Event event = oldestFirst.poll();
        event.log().events.poll();
        event.log().firstKept = event.seq() + 1;
        bytes -= event.bytes();
        counters.keptEvents.decrementAndGet();
        counters.keptBytes.addAndGet(-event.bytes());
        counters.evictedEvents.incrementAndGet();
    }

    /** Marks the stream complete; false when it was already. */
    synchronized boolean complete(StreamLog log, boolean carriesResponse) {
        if (log.complete) {
            return false;
        }
        log.complete = true;
        log.carriesResponse = carriesResponse;
        log.completedAtNanos = System.nanoTime();
        return true;
    }

    /** The answer was written: from now on the stream only lingers in case the write went nowhere. */
    synchronized void delivered(StreamLog log) {
        log.delivered = true;
        log.completedAtNanos = System.nanoTime();
    }

    /** The stream's events are no longer needed (answered as plain JSON, expired). */
    synchronized void drop(StreamLog log) {
        // nothing more goes on it, and its end is nobody's news
        log.complete = true;
        if (logs.remove(log.id, log)) {
            for (StreamLog.Event event : log.events) {
                bytes -= event.bytes();
                counters.keptEvents.decrementAndGet();
                counters.keptBytes.addAndGet(-event.bytes());
            }
            if (!log.events.isEmpty()) {
                // a scan of the whole session's events, so only for a stream that kept some
                oldestFirst.removeIf(event -> event.log() == log);
                log.events.clear();
            }
        }
    }

    synchronized Resume find(String lastEventId) {
        int dash = lastEventId.lastIndexOf('-');
        String stream = lastEventId.substring(0, Math.max(dash, 0));
        long seq;
        try {
            seq = Long.parseLong(lastEventId.substring(dash + 1));
        } catch (NumberFormatException e) {
            seq = -1;
        }
        if (stream.isEmpty() || seq < 0) {
            return new Resume.Refused("Last-Event-ID " + lastEventId + " is not an event id mcpx sent");
        }
        StreamLog log = logs.get(stream);
        if (log == null || seq >= log.nextSeq) {
            String reason = "Last-Event-ID " + lastEventId + " names no stream this session can resume:"
                    + " it belongs to another session, or its stream completed and was dropped";
            return log == null ? new Resume.NotHere(stream, seq, reason) : new Resume.Refused(reason);
        }
        if (seq + 1 < log.firstKept) {
            return new Resume.Refused("Last-Event-ID " + lastEventId + " cannot be resumed: events after it were"
                    + " dropped (a session keeps at most " + settings.maxEvents() + " events and "
                    + settings.maxBytes() + " bytes for resuming)");
        }
        return new Resume.Found(log, seq);
    }

    /** The kept events after {@code afterSeq}, or null when some of them were evicted meanwhile. */
    synchronized List<StreamLog.Event> after(StreamLog log, long afterSeq) {
        if (logs.get(log.id) != log || afterSeq + 1 < log.firstKept) {
            return null;
        }
        List<StreamLog.Event> replay = new ArrayList<>();
        for (StreamLog.Event event : log.events) {
            if (event.seq() > afterSeq) {
                replay.add(event);
            }
        }
        return replay;
    }

    /** Drops completed streams past their {@code linger} (delivered) or {@code grace} (not delivered). */
    synchronized void sweep(long nowNanos) {
        Iterator<StreamLog> all = logs.values().iterator();
        List<StreamLog> expired = new ArrayList<>();
        while (all.hasNext()) {
            StreamLog log = all.next();
            long keep = (log.delivered ? settings.linger() : settings.grace()).toNanos();
            if (log.complete && nowNanos - log.completedAtNanos > keep) {
                expired.add(log);
            }
        }
        for (StreamLog log : expired) {
            if (log.carriesResponse && !log.delivered) {
                counters.droppedResults.incrementAndGet();
            }
            drop(log);
        }
    }

    synchronized void clear() {
        counters.keptEvents.addAndGet(-oldestFirst.size());
        counters.keptBytes.addAndGet(-bytes);
        logs.values().forEach(log -> log.events.clear());
        logs.clear();
        oldestFirst.clear();
        bytes = 0;
    }
}
