package dev.mcpx.front;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.RequestId;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.databind.node.ObjectNode;

/**
 * A modern host's {@code subscriptions/listen}, on whatever stream carries it (an SSE response,
 * stdout): the list changes it opted in to and the resources it subscribed to, tagged with its
 * id, nothing before the acknowledgment. The same for both fronts; they own only the stream.
 */
public final class Listen {

    private static final List<String> LIST_FLAGS = List.of("toolsListChanged", "promptsListChanged", "resourcesListChanged");

    private final HostRequests requests;
    private final RequestId id;
    private final ObjectNode asked;
    /** The list_changed filter flags the host asked for: mcpx honours all of them. */
    private final Set<String> lists;
    private final ListenUpdates updates;
    private final HostChannel stream;

    /** {@code requests}: the gateway as the host's profile shows it. */
    public Listen(HostRequests requests, Request hostRequest, HostChannel stream) {
        this.requests = requests;
        this.id = hostRequest.id();
        this.asked = Json.objectAt(hostRequest.params(), "notifications");
        this.lists = LIST_FLAGS.stream().filter(flag -> asked != null && asked.path(flag).asBoolean(false))
                .collect(Collectors.toUnmodifiableSet());
        this.stream = stream;
        this.updates = new ListenUpdates(id, stream::send);
    }

    public RequestId id() {
        return id;
    }

    /**
     * Subscribes to the resources asked for, then acknowledges what was agreed (the spec: the
     * acknowledgment omits what mcpx cannot honour). May wait for upstreams still starting.
     */
    public void open() {
        ObjectNode agreed = Json.object();
        LIST_FLAGS.stream().filter(lists::contains).forEach(flag -> agreed.put(flag, true));
        requests.subscribeAll(updates, asked, agreed);
        ObjectNode ack = Json.object();
        ack.putObject(MetaKeys.META).set(MetaKeys.SUBSCRIPTION_ID, id.toJson());
        ack.set("notifications", agreed);
        updates.open(new Notification(Methods.SUBSCRIPTIONS_ACKNOWLEDGED, ack));
    }

    /** Tells the host of the lists that changed for its profile, those it opted in to. */
    public void listsChanged(ListChanges.Notice notice) {
        for (String method : notice.methods(requests.profileName())) {
            if (lists.contains(SubscriptionFlags.of(method))) {
                updates.listChanged(method);
            }
        }
    }

    /** mcpx ends the listen (shutting down): the one thing a server cancels, and it says so (cancellation.md). */
    public void cancel(String reason) {
        stream.send(new Notification(Methods.CANCELLED, Json.object()
                .<ObjectNode>set("requestId", id.toJson()).put("reason", reason)));
    }

    /** The listen ended: its resource subscriptions end, and upstreams no host needs are released. */
    public void close() {
        requests.release(updates);
    }
}
