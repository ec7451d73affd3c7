package dev.mcpx.testkit.legacy;

import java.util.ArrayList;
import java.util.List;

/**
 * The events of one SSE stream, kept so that a reconnect with {@code Last-Event-ID} can replay
 * what the client missed. Event ids are {@code <streamId>-<index>}, so an id names its stream.
 */
final class EventLog {

    record Event(String id, String data) {
    }

    private final String streamId;
    private final List<Event> events = new ArrayList<>();
    private boolean finished;

    EventLog(String streamId) {
        this.streamId = streamId;
    }

    String streamId() {
        return streamId;
    }

    /** Appends an event with the next id and wakes the writers waiting for it. */
    synchronized Event append(String data) {
        Event event = new Event(streamId + "-" + events.size(), data);
        events.add(event);
        notifyAll();
        return event;
    }

    /** No more events will come: writers end their streams once they have written everything. */
    synchronized void finish() {
        finished = true;
        notifyAll();
    }

    synchronized boolean finished() {
        return finished;
    }

    /**
     * The events from index {@code from} on, waiting up to {@code waitMillis} for at least one;
     * an empty list means none came in time, or the log is finished.
     */
    synchronized List<Event> await(int from, long waitMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + waitMillis;
        while (events.size() <= from && !finished) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                break;
            }
            wait(left);
        }
        return events.size() > from ? List.copyOf(events.subList(from, events.size())) : List.of();
    }

    synchronized boolean drained(int from) {
        return finished && events.size() <= from;
    }

    /** The index of the event after {@code eventId}, or -1 when the id is not from this log. */
    static int indexAfter(String eventId) {
        int dash = eventId.lastIndexOf('-');
        if (dash < 0) {
            return -1;
        }
        try {
            return Integer.parseInt(eventId.substring(dash + 1)) + 1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static String streamOf(String eventId) {
        int dash = eventId.lastIndexOf('-');
        return dash < 0 ? eventId : eventId.substring(0, dash);
    }
}
