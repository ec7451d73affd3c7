package dev.mcpx.testkit.modern;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** One open {@code subscriptions/listen} response stream and the notifications it opted in to. */
final class ListenStream {

    /** What ends a stream: a graceful completion result, or an abort with no response at all. */
    enum Ending { GRACEFUL, ABORT }

    final JsonNode id;
    final boolean toolsListChanged;
    final boolean promptsListChanged;
    final boolean resourcesListChanged;
    final Set<String> resourceSubscriptions = new HashSet<>();
    private final BlockingQueue<Object> outbox = new LinkedBlockingQueue<>();

    ListenStream(JsonNode id, JsonNode filter) {
        this.id = id;
        this.toolsListChanged = filter.path("toolsListChanged").asBoolean(false);
        this.promptsListChanged = filter.path("promptsListChanged").asBoolean(false);
        this.resourcesListChanged = filter.path("resourcesListChanged").asBoolean(false);
        for (JsonNode uri : filter.path("resourceSubscriptions")) {
            resourceSubscriptions.add(uri.asString());
        }
    }

    /** The acknowledged subset of the filter (everything asked for is supported here). */
    ObjectNode acknowledged() {
        ObjectNode notifications = FakeCatalogue.JSON.createObjectNode();
        if (toolsListChanged) {
            notifications.put("toolsListChanged", true);
        }
        if (promptsListChanged) {
            notifications.put("promptsListChanged", true);
        }
        if (resourcesListChanged) {
            notifications.put("resourcesListChanged", true);
        }
        if (!resourceSubscriptions.isEmpty()) {
            resourceSubscriptions.forEach(notifications.putArray("resourceSubscriptions")::add);
        }
        return notifications;
    }

    /** Queues a notification, tagged with this subscription's id. */
    void notify(String method, ObjectNode params) {
        ObjectNode message = FakeCatalogue.JSON.createObjectNode();
        message.put("jsonrpc", "2.0");
        message.put("method", method);
        ObjectNode p = params == null ? FakeCatalogue.JSON.createObjectNode() : params.deepCopy();
        p.withObjectProperty("_meta").set("io.modelcontextprotocol/subscriptionId", id);
        message.set("params", p);
        outbox.add(message);
    }

    void end(Ending ending) {
        outbox.add(ending);
    }

    /**
     * Writes queued notifications until the stream is ended; a comment line every half second
     * notices a client that went away. Returns how the stream ended.
     */
    Ending serve(OutputStream out) throws IOException {
        while (true) {
            Object next;
            try {
                next = outbox.poll(500, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Ending.ABORT;
            }
            if (next instanceof Ending ending) {
                return ending;
            }
            String chunk = next == null ? ":\n\n"
                    : "event: message\ndata: " + FakeCatalogue.JSON.writeValueAsString(next) + "\n\n";
            out.write(chunk.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }
}
