package dev.mcpx.testkit.conformance;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.JsonNode;

/**
 * A legacy (2025-11-25) POST SSE stream that keeps its events, so a client whose stream was
 * closed mid-call can resume it with GET and Last-Event-ID (SEP-1699). Event ids are
 * {@code <streamId>-<seq>}; seq 0 is the priming event, which carries no data.
 */
final class ResumableStream {

    static final int RETRY_MS = 500;

    private record Event(int seq, String data) {
    }

    private final String id;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<Event> events = new ArrayList<>();
    private SseWriter writer;
    private boolean finished;

    ResumableStream(String id, SseWriter writer) throws IOException {
        this.id = id;
        this.writer = writer;
        writer.event(eventId(0), RETRY_MS, "");
    }

    String id() {
        return id;
    }

    /** The stream id an event id belongs to, or null when it is not one of ours. */
    static String streamIdOf(String eventId) {
        int dash = eventId == null ? -1 : eventId.lastIndexOf('-');
        return dash <= 0 ? null : eventId.substring(0, dash);
    }

    void send(JsonNode message) {
        lock.lock();
        try {
            Event event = new Event(events.size() + 1, Json.write(message));
            events.add(event);
            writeOrDetach(event);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Closes the HTTP response but keeps the stream: later events wait for a resuming GET. */
    void disconnect() {
        lock.lock();
        try {
            if (writer != null) {
                writer.close();
                writer = null;
            }
        } finally {
            lock.unlock();
        }
    }

    /** The final response was sent: closes the attached response, releases a resuming GET. */
    void finish() {
        lock.lock();
        try {
            finished = true;
            if (writer != null) {
                writer.close();
                writer = null;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Replays the events after lastEventId onto a new response, then follows the stream until it finishes. */
    void resume(SseWriter resumed, String lastEventId, long timeoutMs) throws InterruptedException {
        int after = Integer.parseInt(lastEventId.substring(lastEventId.lastIndexOf('-') + 1));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        lock.lock();
        try {
            if (writer != null) {
                writer.close();
            }
            writer = resumed;
            for (Event event : events) {
                if (event.seq() > after) {
                    writeOrDetach(event);
                }
            }
            while (!finished && writer == resumed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                changed.awaitNanos(left);
            }
            if (writer == resumed) {
                writer = null;
            }
        } finally {
            lock.unlock();
        }
        resumed.close();
    }

    private void writeOrDetach(Event event) {
        if (writer == null) {
            return;
        }
        try {
            writer.event(eventId(event.seq()), null, event.data());
        } catch (IOException clientLeft) {
            writer = null;
        }
    }

    private String eventId(int seq) {
        return id + "-" + seq;
    }
}
